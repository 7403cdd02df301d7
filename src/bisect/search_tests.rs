use super::*;
use crate::stats::Uniform;

/// A stand-in for Gradle: each point fails at its rate; some never build.
struct Rates {
    rates: Vec<f64>,
    broken: Vec<usize>,
    draw: Uniform,
    calls: Vec<(usize, u64)>,
}

impl Rates {
    fn new(rates: Vec<f64>, seed: u64) -> Rates {
        Rates {
            rates,
            broken: vec![],
            draw: Uniform(seed),
            calls: vec![],
        }
    }
}

impl Probe for Rates {
    fn measure(&mut self, point: usize, runs: u64) -> Result<Measured> {
        self.calls.push((point, runs));
        if self.broken.contains(&point) {
            return Ok(Measured::Skip("does not compile".into()));
        }
        let rate = self.rates[point];
        let failures = (0..runs).filter(|_| self.draw.next() < rate).count() as u64;
        Ok(Measured::Ran(Counts::new(failures, runs)))
    }
}

/// A history of `n` points whose rate steps from 0 to `rate` at `culprit`.
fn step(n: usize, culprit: usize, rate: f64) -> Vec<f64> {
    (0..n)
        .map(|i| if i >= culprit { rate } else { 0.0 })
        .collect()
}

const RULES: Rules = Rules {
    alpha: 0.05,
    max_runs: 400,
    chunk: 10,
};

#[test]
fn halvings_narrow_a_span_to_one_point() {
    assert_eq!(
        [1, 2, 3, 4, 5, 8, 9, 64].map(halvings),
        [0, 1, 2, 2, 3, 3, 4, 6]
    );
}

#[test]
fn names_the_commit_where_a_test_became_30_percent_flaky() {
    let mut m = Rates::new(step(12, 7, 0.3), 1);
    let out = search(vec![Counts::new(0, 0); 12], RULES, &mut m);
    assert_eq!(
        out.ending,
        Ending::Culprit {
            culprit: 7,
            parent: 6
        }
    );
    assert_eq!(out.runs, m.calls.iter().map(|c| c.1).sum::<u64>());
    assert!(out.runs < 600, "{} runs", out.runs);
    assert!(matches!(out.sides[7], Some(BisectSide::Bad { .. })));
    assert!(matches!(out.sides[6], Some(BisectSide::Good { .. })));
}

#[test]
fn known_counts_are_not_run_again() {
    let rates = step(12, 7, 0.3);
    let mut first = Rates::new(rates.clone(), 2);
    let out = search(vec![Counts::new(0, 0); 12], RULES, &mut first);
    let mut second = Rates::new(rates, 3);
    let again = search(out.counts.clone(), RULES, &mut second);
    assert_eq!(again.ending, out.ending);
    assert!(
        again.runs * 4 < out.runs,
        "warm {} against cold {}",
        again.runs,
        out.runs
    );
}

#[test]
fn a_flaky_good_end_and_a_clean_bad_end_name_no_commit() {
    let mut m = Rates::new(vec![0.3; 8], 4);
    let out = search(vec![Counts::new(0, 0); 8], RULES, &mut m);
    assert_eq!(out.ending, Ending::GoodFlaky);
    let mut m = Rates::new(vec![0.0; 8], 5);
    let out = search(vec![Counts::new(0, 0); 8], RULES, &mut m);
    assert_eq!(out.ending, Ending::BadNotFlaky);
    assert_eq!(out.counts[7], Counts::new(0, 400));
    assert_eq!(out.runs, 400, "only the bad end ran");
}

#[test]
fn a_point_that_does_not_build_is_skipped_and_its_neighbour_measured() {
    let mut m = Rates::new(step(9, 5, 0.4), 6);
    m.broken = vec![4];
    let out = search(vec![Counts::new(0, 0); 9], RULES, &mut m);
    // As git bisect: the culprit is the skipped 4 or the 5 after it.
    assert_eq!(out.ending, Ending::Skipped { good: 3, bad: 5 });
    assert!(matches!(out.sides[5], Some(BisectSide::Bad { .. })));
    assert_eq!(out.skipped[4].as_deref(), Some("does not compile"));
    // The culprit's first parent skipped: the culprit is 4 or 5.
    let mut m = Rates::new(step(4, 2, 0.4), 7);
    m.broken = vec![1, 2];
    let out = search(vec![Counts::new(0, 0); 4], RULES, &mut m);
    assert_eq!(out.ending, Ending::Skipped { good: 0, bad: 3 });
}

#[test]
fn a_rate_too_low_for_the_runs_allowed_cannot_be_told() {
    let rules = Rules {
        max_runs: 40,
        ..RULES
    };
    let mut m = Rates::new(step(6, 3, 0.05), 8);
    let out = search(vec![Counts::new(0, 0); 6], rules, &mut m);
    assert!(
        matches!(out.ending, Ending::CannotTell { .. } | Ending::BadNotFlaky),
        "{:?}",
        out.ending
    );
}

/// Plain bisection with `runs` runs a point: a point that fails once is bad.
fn plain(rates: &[f64], runs: u64, draw: &mut Uniform) -> usize {
    let (mut good, mut bad) = (0, rates.len() - 1);
    while bad - good > 1 {
        let mid = good + (bad - good) / 2;
        match (0..runs).any(|_| draw.next() < rates[mid]) {
            true => bad = mid,
            false => good = mid,
        }
    }
    bad
}

/// Over many random histories (8 to 64 commits, a culprit anywhere, its
/// rate 5% to 50%), the search names a wrong commit at most as often as
/// its stated error rate; plain bisection with one run a point (`git
/// bisect`) names a wrong one most of the time.
#[test]
fn over_random_histories_the_error_rate_stays_within_the_stated_one() {
    let mut draw = Uniform(42);
    let histories = 300;
    let (mut wrong, mut undecided, mut runs, mut points) = (0, 0, 0u64, 0u64);
    let mut cases = vec![];
    for h in 0..histories {
        let n = 8 + (draw.next() * 57.0) as usize;
        let culprit = 1 + (draw.next() * (n - 1) as f64) as usize;
        let rate = 0.05 + draw.next() * 0.45;
        let rates = step(n, culprit, rate);
        let mut m = Rates::new(rates.clone(), 1000 + h);
        let out = search(vec![Counts::new(0, 0); n], RULES, &mut m);
        runs += out.runs;
        points += out.counts.iter().filter(|c| c.runs > 0).count() as u64;
        match out.ending {
            Ending::Culprit { culprit: c, .. } if c == culprit => {}
            Ending::Culprit { .. } => wrong += 1,
            _ => undecided += 1,
        }
        cases.push(rates);
    }
    let per_point = runs / points;
    let mut plain_wrong = |runs: u64| {
        cases
            .iter()
            .filter(|rates| {
                let culprit = rates.iter().position(|r| *r > 0.0).unwrap();
                plain(rates, runs, &mut draw) != culprit
            })
            .count()
    };
    let (once, as_many) = (plain_wrong(1), plain_wrong(per_point));
    eprintln!(
        "{histories} histories: wrong {wrong}, undecided {undecided}, mean runs {}, \
         {per_point} a point; plain bisection wrong {once} at one run a point, {as_many} at \
         {per_point}",
        runs / histories
    );
    assert!(wrong as f64 <= 0.05 * histories as f64, "wrong {wrong}");
    assert!(
        undecided as f64 <= 0.02 * histories as f64,
        "undecided {undecided}"
    );
    assert!(
        once as u64 > histories / 2,
        "git bisect's way: wrong {once}"
    );
}
