//! Integration tests: completions and the man page stay current with the CLI.

use crate::common::{gradle_flaky, repo_root, run, text};
use std::process::Command;

/// Regenerate with: `UPDATE_GENERATED=1 cargo nextest run generated_files`.
#[test]
fn generated_files_match_the_cli() {
    let update = std::env::var_os("UPDATE_GENERATED").is_some();
    let mut stale = Vec::new();
    for (rel, want) in gradle_flaky::commands::completions::checked_in_files().unwrap() {
        let path = repo_root().join(rel);
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

#[test]
fn bash_completion_completes_subcommands() {
    // Source the generated script in a real bash and ask it to complete `gradle-flaky l`.
    let script = repo_root().join("completions/gradle-flaky.bash");
    let probe = format!(
        "source '{}'\n\
         complete -p gradle-flaky\n\
         COMP_WORDS=(gradle-flaky l); COMP_CWORD=1; COMP_LINE='gradle-flaky l'; COMP_POINT=${{#COMP_LINE}}\n\
         _gradle__flaky gradle-flaky l gradle-flaky\n\
         printf 'candidate:%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script.display()
    );
    let out = Command::new("bash").arg("-c").arg(&probe).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("-F _gradle__flaky gradle-flaky"),
        "{stdout}"
    );
    assert!(stdout.contains("candidate:local"), "{stdout}");
    assert!(stdout.contains("candidate:layout"), "{stdout}");
    assert!(!stdout.contains("candidate:plan"), "{stdout}");
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
    for sub in [
        "local",
        "plan",
        "pr",
        "manual",
        "analyze",
        "buildkite",
        "repeat",
        "layout",
        "triage",
    ] {
        assert!(page.contains(sub), "man page lacks {sub}");
    }
}
