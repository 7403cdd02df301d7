//! Integration tests: completions and the man page stay current with the CLI.

use crate::common::{gradle_flaky, repo_root, run, text};
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
fn every_reason_code_is_listed_in_the_readme() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    for code in gradle_flaky::domain::ReasonCode::ALL {
        let json = serde_json::to_value(code).unwrap();
        assert_eq!(json, code.as_str(), "the JSON name is the listed name");
        assert!(
            readme.contains(&format!("| `{code}` |")),
            "README's reason code table lacks `{code}`"
        );
    }
    for code in gradle_flaky::domain::RouteCode::ALL {
        let json = serde_json::to_value(code).unwrap();
        assert_eq!(json, code.as_str(), "the JSON name is the listed name");
        assert!(
            readme.contains(&format!("| `{}` |", code.as_str())),
            "README's suite route table lacks `{}`",
            code.as_str()
        );
    }
}

#[test]
fn the_readme_shows_the_workflow_as_generated() {
    let out = run(gradle_flaky().args(["github", "workflow"]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let generated = String::from_utf8(out.stdout).unwrap();
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let marker = "<!-- github-workflow:";
    let shown = readme[readme.find(marker).expect("the marked workflow block")..]
        .split_once("```yaml\n")
        .and_then(|(_, rest)| rest.split_once("```\n"))
        .map(|(block, _)| block)
        .expect("a yaml block after the marker");
    assert_eq!(
        shown, generated,
        "README's workflow differs from `gradle-flaky github workflow`: paste its output there"
    );
}
