//! Integration tests: completions, the man pages and the book's generated
//! pages stay current with the CLI, and every link of the README and the book
//! resolves.

use crate::common::{gradle_flaky, repo_root, run, text};
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Regenerate with: `UPDATE_GENERATED=1 cargo nextest run generated_files`.
#[test]
fn generated_files_match_the_cli() {
    let update = std::env::var_os("UPDATE_GENERATED").is_some();
    let mut stale = Vec::new();
    let files = gradle_flaky::commands::completions::checked_in_files().unwrap();
    // A page of a subcommand that no longer exists is stale too.
    for entry in std::fs::read_dir(repo_root().join("doc")).unwrap() {
        let rel = format!("doc/{}", entry.unwrap().file_name().to_string_lossy());
        if rel.ends_with(".1") && !files.iter().any(|(r, _)| *r == rel) {
            if update {
                std::fs::remove_file(repo_root().join(&rel)).unwrap();
            } else {
                stale.push(rel);
            }
        }
    }
    for (rel, want) in files {
        let path = repo_root().join(&rel);
        if update {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &want).unwrap();
        } else if std::fs::read(&path).ok().as_deref() != Some(&want[..]) {
            stale.push(rel);
        }
    }
    assert!(
        stale.is_empty(),
        "{stale:?} differ from what the current CLI generates; regenerate them with \
         `UPDATE_GENERATED=1 cargo nextest run generated_files` and commit the result"
    );
}

#[test]
fn completions_command_prints_what_is_checked_in() {
    let out = run(gradle_flaky().args(["completions", "bash"]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let checked_in = std::fs::read(repo_root().join("completions/gradle-flaky.bash")).unwrap();
    assert_eq!(out.stdout, checked_in);
}

/// Command lines a user completes, and a candidate each must offer: a
/// subcommand, a subcommand's flag, a global flag after a subcommand, the
/// values of an enum flag and of an enum positional, a nested subcommand.
const COMPLETIONS: &[(&str, &[&str])] = &[
    ("gradle-flaky lo", &["local"]),
    ("gradle-flaky local --it", &["--iters"]),
    ("gradle-flaky plan --project", &["--project-dir"]),
    ("gradle-flaky local --format ", &["markdown", "json"]),
    ("gradle-flaky plan --format ", &["text", "json", "shell"]),
    ("gradle-flaky pr --target ", &["local", "buildkite"]),
    ("gradle-flaky completions ", &["bash", "zsh", "fish"]),
    ("gradle-flaky buildkite up", &["upload"]),
    ("gradle-flaky buildkite wrap --ti", &["--timeout"]),
    ("gradle-flaky history --le", &["--ledger"]),
];

/// Runs a completion probe; a missing shell fails the test with the fix
/// (`scripts/test.sh` installs zsh and fish).
fn completion_probe(cmd: &mut Command, shell: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| {
        panic!("cannot run {shell} ({e}): install it (`apt-get install {shell}`, as scripts/test.sh does)")
    });
    assert!(out.status.success(), "{}", text(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn assert_completes(shell: &str, line: &str, want: &[&str], got: &str) {
    let got: Vec<&str> = got
        .lines()
        .filter_map(|l| l.strip_prefix("match:"))
        .collect();
    for w in want {
        assert!(
            got.contains(w),
            "{shell}: `{line}<TAB>` does not offer {w}; it offers {got:?}"
        );
    }
}

#[test]
fn bash_completion_completes_subcommands_flags_and_values() {
    // Source the checked-in script in a real bash and call its completion
    // function the way bash does on TAB.
    let script = repo_root().join("completions/gradle-flaky.bash");
    for (line, want) in COMPLETIONS {
        let mut words: Vec<&str> = line.split_whitespace().collect();
        if line.ends_with(' ') {
            words.push("");
        }
        let cword = words.len() - 1;
        let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
        let probe = format!(
            "source '{}'\n\
             complete -p gradle-flaky >/dev/null || exit 9\n\
             COMP_WORDS=({}); COMP_CWORD={cword}; COMP_LINE='{line}'; COMP_POINT=${{#COMP_LINE}}\n\
             _gradle__flaky gradle-flaky '{}' '{}'\n\
             printf 'match:%s\\n' \"${{COMPREPLY[@]}}\"\n",
            script.display(),
            quoted.join(" "),
            words[cword],
            words[cword - 1],
        );
        let got = completion_probe(Command::new("bash").arg("-c").arg(&probe), "bash");
        assert_completes("bash", line, want, &got);
    }
}

#[test]
fn zsh_completion_completes_subcommands_flags_and_values() {
    // A real interactive zsh on a pseudo-terminal loads the checked-in
    // `_gradle-flaky` through compinit, and TAB is pressed after each line.
    let harness = repo_root().join("tests/integration/completion/zsh-complete.zsh");
    for (line, want) in COMPLETIONS {
        let got = completion_probe(
            Command::new("timeout")
                .arg("60")
                .arg("zsh")
                .arg("-f")
                .arg(&harness)
                .arg(repo_root().join("completions"))
                .arg(line),
            "zsh",
        );
        assert_completes("zsh", line, want, &got);
    }
}

#[test]
fn fish_completion_completes_subcommands_flags_and_values() {
    // fish's own `complete -C LINE` prints what TAB would offer on LINE.
    let script = repo_root().join("completions/gradle-flaky.fish");
    for (line, want) in COMPLETIONS {
        let probe = format!(
            "source '{}'; for c in (complete -C '{line}'); echo match:(string split -f1 \\t -- $c); end",
            script.display()
        );
        let got = completion_probe(
            Command::new("fish").args(["--no-config", "-c", &probe]),
            "fish",
        );
        assert_completes("fish", line, want, &got);
    }
}

#[test]
fn man_page_documents_every_subcommand() {
    let out = run(gradle_flaky().arg("man"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(
        page.starts_with(".ie"),
        "roff: {}",
        &page[..40.min(page.len())]
    );
    // Every page the main page refers to is checked in (and kept current by
    // `generated_files_match_the_cli`).
    let referred: Vec<&str> = page
        .split(|c: char| c.is_whitespace())
        .filter(|w| w.starts_with("gradle\\-flaky\\-") && w.ends_with("(1)"))
        .collect();
    for sub in [
        "local",
        "plan",
        "pr",
        "manual",
        "analyze",
        "buildkite",
        "github",
        "repeat",
        "layout",
        "triage",
    ] {
        let name = format!("gradle\\-flaky\\-{sub}(1)");
        assert!(
            referred.contains(&name.as_str()),
            "man page lacks {name}: {referred:?}"
        );
        let file = repo_root().join(format!("doc/gradle-flaky-{sub}.1"));
        let sub_page =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(
            sub_page.contains(".SH OPTIONS") || sub_page.contains(".SH SUBCOMMANDS"),
            "{sub_page}"
        );
    }
    assert!(repo_root()
        .join("doc/gradle-flaky-buildkite-upload.1")
        .is_file());
}

#[test]
fn every_reason_code_is_listed_in_the_book() {
    let page = read_repo_file("docs/src/reference/reason-codes.md");
    for code in gradle_flaky::domain::ReasonCode::ALL {
        let json = serde_json::to_value(code).unwrap();
        assert_eq!(json, code.as_str(), "the JSON name is the listed name");
        assert!(
            page.contains(&format!("| `{code}` |")),
            "the book's reason code table lacks `{code}`"
        );
    }
    for code in gradle_flaky::domain::RouteCode::ALL {
        let json = serde_json::to_value(code).unwrap();
        assert_eq!(json, code.as_str(), "the JSON name is the listed name");
        assert!(
            page.contains(&format!("| `{}` |", code.as_str())),
            "the book's suite route table lacks `{}`",
            code.as_str()
        );
    }
}

/// The workflow the book shows, included from this file (never pasted).
const WORKFLOW: &str = "docs/src/ci/flakiness.yml";

/// Regenerate with: `UPDATE_GENERATED=1 cargo nextest run generated_files`.
#[test]
fn generated_files_include_the_books_workflow_as_generated() {
    let out = run(gradle_flaky().args(["github", "workflow"]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::write(repo_root().join(WORKFLOW), &out.stdout).unwrap();
    }
    assert_eq!(
        read_repo_file(WORKFLOW),
        String::from_utf8(out.stdout).unwrap(),
        "{WORKFLOW} differs from `gradle-flaky github workflow`: regenerate it with \
         `UPDATE_GENERATED=1 cargo nextest run generated_files`"
    );
    let chapter = read_repo_file("docs/src/ci/github.md");
    assert!(
        chapter.contains("```yaml\n{{#include flakiness.yml}}\n```"),
        "the GitHub chapter includes the generated workflow"
    );
}

#[test]
fn the_cli_reference_is_what_help_prints() {
    // Each section of the generated page is one command's `--help`, as a
    // user without a terminal sees it (clap wraps at 100 columns then).
    let page = read_repo_file("docs/src/reference/cli.md");
    let mut checked = 0;
    for section in page.split("\n## `gradle-flaky").skip(1) {
        let (name, rest) = section.split_once("`\n").unwrap();
        let shown = rest
            .split_once("```text\n")
            .and_then(|(_, b)| b.split_once("\n```\n"))
            .map(|(block, _)| block)
            .unwrap_or_else(|| panic!("no help block for `gradle-flaky{name}`"));
        let out = run(gradle_flaky()
            .args(name.split_whitespace())
            .arg("--help")
            .env_remove("COLUMNS"));
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        assert_eq!(
            shown,
            String::from_utf8_lossy(&out.stdout).trim_end(),
            "the reference of `gradle-flaky{name}` differs from its --help"
        );
        checked += 1;
    }
    // Every visible command and subcommand has its section.
    assert!(checked >= 20, "{checked} commands in the reference");
    let vars = read_repo_file("docs/src/reference/variables.md");
    for name in [
        "FLAKINESS_ITERS",
        "FLAKINESS_PROJECT_DIR",
        "FLAKINESS_CLASSES",
        "FLAKINESS_TRIAGE_BUDGET",
        "FLAKINESS_BLOCKING_LABELS",
        "FLAKINESS_REPORT_CONTEXT",
    ] {
        assert!(
            vars.contains(&format!("| `{name}` |")),
            "{name} is not listed"
        );
    }
}

#[test]
fn the_readme_is_a_five_minute_read() {
    let readme = read_repo_file("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= 120,
        "README.md has {lines} lines: move detail into the book (docs/)"
    );
    // The two quick-start commands, unchanged: CI runs the second.
    assert!(readme.contains(
        "examples/quickstart.sh   # build gradle-flaky and find a flaky test in the example build\n\
         scripts/test.sh          # the whole test suite, what CI runs\n"
    ));
}

#[test]
fn every_link_and_anchor_of_the_readme_and_the_book_resolves() {
    let mut pages = vec![
        repo_root().join("README.md"),
        repo_root().join("ARCHITECTURE.md"),
    ];
    pages.extend(markdown_files(&repo_root().join("docs/src")));
    let mut broken = Vec::new();
    let mut links = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let dir = page.parent().unwrap();
        for target in includes(&text) {
            if !dir.join(&target).is_file() {
                broken.push(format!("{}: {{{{#include {target}}}}}", page.display()));
            }
        }
        for link in links_of(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            links += 1;
            let (path, anchor) = link.split_once('#').unwrap_or((&link, ""));
            let file = if path.is_empty() {
                page.clone()
            } else {
                dir.join(path)
            };
            if !file.exists() {
                broken.push(format!("{}: {link} (no such file)", page.display()));
            } else if !anchor.is_empty() {
                let target = std::fs::read_to_string(&file).unwrap_or_default();
                if !anchors_of(&target).iter().any(|a| a == anchor) {
                    broken.push(format!("{}: {link} (no such heading)", page.display()));
                }
            }
        }
    }
    assert!(links > 100, "only {links} links were found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The book's SUMMARY lists every chapter, and every chapter is in it.
#[test]
fn every_chapter_of_the_book_is_in_its_summary() {
    let src = repo_root().join("docs/src");
    let summary = links_of(&read_repo_file("docs/src/SUMMARY.md"));
    for page in markdown_files(&src) {
        let rel = page
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if rel != "SUMMARY.md" {
            assert!(summary.contains(&rel), "{rel} is not in SUMMARY.md");
        }
    }
    for chapter in [
        "repetition.md",
        "budgets.md",
        "reference/cli.md",
        "reference/variables.md",
    ] {
        assert!(summary.iter().any(|l| l == chapter), "{chapter}");
    }
}

fn read_repo_file(rel: &str) -> String {
    std::fs::read_to_string(repo_root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Every `.md` file below `dir`, sorted.
fn markdown_files(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "md"))
        .map(|e| e.into_path())
        .collect();
    found.sort();
    found
}

/// The destination of every link and image of a markdown page.
fn links_of(text: &str) -> Vec<String> {
    Parser::new_ext(text, Options::all())
        .filter_map(|e| match e {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                Some(dest_url.into_string())
            }
            _ => None,
        })
        .collect()
}

/// The files of mdBook's `{{#include FILE}}` directives.
fn includes(text: &str) -> Vec<String> {
    text.split("{{#include ")
        .skip(1)
        .filter_map(|rest| rest.split_once("}}"))
        .map(|(target, _)| target.split(':').next().unwrap().trim().to_string())
        .collect()
}

/// The anchors of a page's headings as mdBook and GitHub make them: a
/// repeated heading gets `-1`, `-2`, ...
fn anchors_of(text: &str) -> Vec<String> {
    let mut anchors: Vec<String> = Vec::new();
    let mut heading: Option<String> = None;
    for event in Parser::new_ext(text, Options::all()) {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let base = anchor_of(&heading.take().unwrap());
                let mut anchor = base.clone();
                let mut n = 0;
                while anchors.contains(&anchor) {
                    n += 1;
                    anchor = format!("{base}-{n}");
                }
                anchors.push(anchor);
            }
            _ => {}
        }
    }
    anchors
}

/// mdBook's and GitHub's anchor of a heading's text: lower case, blanks as
/// `-`, every character but letters, digits, `-` and `_` dropped.
fn anchor_of(heading: &str) -> String {
    heading
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || c.is_whitespace())
        .map(|c| if c.is_whitespace() { '-' } else { c })
        .flat_map(char::to_lowercase)
        .collect()
}
