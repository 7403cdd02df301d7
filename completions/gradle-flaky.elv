
use builtin;
use str;

set edit:completion:arg-completer[gradle-flaky] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'gradle-flaky'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'gradle-flaky'= {
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand local 'Select, plan and run tests on this machine, then print the report'
            cand plan 'Show what would run, and what a clean result would prove; run nothing'
            cand pr 'Changed tests and unmutes of this branch, run here or uploaded to Buildkite'
            cand manual 'CI entry driven by FLAKINESS_* variables (the manual Buildkite pipeline)'
            cand analyze 'Read JUnit XML under DIR and print the flakiness report'
            cand buildkite 'Buildkite: upload the sub-pipeline, wrap a batch, or run the final analyze step'
            cand triage 'Replay the failing tests of a finished run and say what kind of flaky each one is'
            cand repeat 'Run one Gradle invocation N times, keeping every iteration''s JUnit XML'
            cand layout 'Print the build as Gradle sees it (projects, source sets, test tasks) as JSON'
            cand man 'Print the man page (roff) to stdout'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'gradle-flaky;local'= {
            cand --base 'Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH, else origin/main, else main'
            cand --muted-file 'The muted-tests file, relative to the project dir'
            cand --iters 'Iterations for every kind (sets unit, integ and REST counts)'
            cand --unit-iters '-Dtests.iters for unit tests and custom source sets [default: 100]'
            cand --integ-iters '-Dtests.iters for internalClusterTest [default: 20]'
            cand --rest-iters 'Gradle invocations per REST batch [default: 10]'
            cand --suite-timeout 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 1h]'
            cand --cap 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2'
            cand --detect-rate 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence'
            cand --confidence 'Confidence for --detect-rate'
            cand --format 'Report format on stdout'
            cand --report 'Also write the report to FILE (in --format)'
            cand --junit 'Also write one merged Surefire-style JUnit XML file (flakyFailure/rerunFailure)'
            cand --triage 'After the run, replay each failing test N times per failing seed (up to 3 seeds, the seed pinned), or alone N times when it has no seed, and say what kind of flaky it is (0: off)'
            cand --triage-budget 'The most replays triage runs in all, every test and seed together [default: 100]'
            cand --triage-timeout 'The most time triage takes; a replay still running then is stopped (90s, 20m, 1h) [default: 30m]'
            cand --batch-timeout 'Kill a batch that runs longer than this (default: suite timeout plus 10 minutes)'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --changed 'Add test files changed against the merge base'
            cand --unmuted 'Add entries removed from muted-tests.yml against the merge base'
            cand --refresh-layout 'Re-read the layout from Gradle instead of the cache'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;plan'= {
            cand --base 'Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH, else origin/main, else main'
            cand --muted-file 'The muted-tests file, relative to the project dir'
            cand --iters 'Iterations for every kind (sets unit, integ and REST counts)'
            cand --unit-iters '-Dtests.iters for unit tests and custom source sets [default: 100]'
            cand --integ-iters '-Dtests.iters for internalClusterTest [default: 20]'
            cand --rest-iters 'Gradle invocations per REST batch [default: 10]'
            cand --suite-timeout 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 1h]'
            cand --cap 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2'
            cand --detect-rate 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence'
            cand --confidence 'Confidence for --detect-rate'
            cand --format 'Output: text for people, json (the plan JSON of README), or shell (one POSIX-quoted command a line)'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --changed 'Add test files changed against the merge base'
            cand --unmuted 'Add entries removed from muted-tests.yml against the merge base'
            cand --refresh-layout 'Re-read the layout from Gradle instead of the cache'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;pr'= {
            cand --base 'Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH, else origin/main, else main'
            cand --target 'Run here, or upload a Buildkite sub-pipeline (default: buildkite when $BUILDKITE is set)'
            cand --muted-file 'The muted-tests file, relative to the project dir'
            cand --iters 'Iterations for every kind (sets unit, integ and REST counts)'
            cand --unit-iters '-Dtests.iters for unit tests and custom source sets [default: 100]'
            cand --integ-iters '-Dtests.iters for internalClusterTest [default: 20]'
            cand --rest-iters 'Gradle invocations per REST batch [default: 10]'
            cand --suite-timeout 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 1h]'
            cand --cap 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2'
            cand --detect-rate 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence'
            cand --confidence 'Confidence for --detect-rate'
            cand --format 'Report format on stdout'
            cand --report 'Also write the report to FILE (in --format)'
            cand --junit 'Also write one merged Surefire-style JUnit XML file (flakyFailure/rerunFailure)'
            cand --agent 'Agent selector for batch steps, as KEY=VALUE (repeatable or comma-separated)'
            cand --step-timeout 'Step timeout of each batch step, in minutes'
            cand --agent-bin 'How agents run gradle-flaky itself (a path or command on the agent)'
            cand --group 'Group name of the uploaded steps'
            cand --triage 'After the run, replay each failing test N times per failing seed (up to 3 seeds, the seed pinned), or alone N times when it has no seed, and say what kind of flaky it is (0: off)'
            cand --triage-budget 'The most replays triage runs in all, every test and seed together [default: 100]'
            cand --triage-timeout 'The most time triage takes; a replay still running then is stopped (90s, 20m, 1h) [default: 30m]'
            cand --batch-timeout 'Kill a local batch that runs longer than this (default: suite timeout plus 10 minutes)'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --dry-run 'Print the pipeline instead of uploading it'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;manual'= {
            cand --iters 'Iterations for every kind (sets unit, integ and REST counts)'
            cand --unit-iters '-Dtests.iters for unit tests and custom source sets [default: 100]'
            cand --integ-iters '-Dtests.iters for internalClusterTest [default: 20]'
            cand --rest-iters 'Gradle invocations per REST batch [default: 10]'
            cand --suite-timeout 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 1h]'
            cand --cap 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2'
            cand --detect-rate 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence'
            cand --confidence 'Confidence for --detect-rate'
            cand --agent 'Agent selector for batch steps, as KEY=VALUE (repeatable or comma-separated)'
            cand --step-timeout 'Step timeout of each batch step, in minutes'
            cand --agent-bin 'How agents run gradle-flaky itself (a path or command on the agent)'
            cand --group 'Group name of the uploaded steps'
            cand --triage 'After the run, replay each failing test N times per failing seed (up to 3 seeds, the seed pinned), or alone N times when it has no seed, and say what kind of flaky it is (0: off)'
            cand --triage-budget 'The most replays triage runs in all, every test and seed together [default: 100]'
            cand --triage-timeout 'The most time triage takes; a replay still running then is stopped (90s, 20m, 1h) [default: 30m]'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --dry-run 'Print the pipeline instead of uploading it'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;analyze'= {
            cand --since 'Skip reports older than TIME (RFC 3339 or seconds since the epoch) or than FILE''s mtime'
            cand --format 'Report format on stdout'
            cand --report 'Also write the report to FILE (in --format)'
            cand --junit 'Also write one merged Surefire-style JUnit XML file (flakyFailure/rerunFailure)'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;buildkite'= {
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand -h 'Print help'
            cand --help 'Print help'
            cand upload 'Upload the sub-pipeline for a selection (pipe to `buildkite-agent pipeline upload`)'
            cand wrap 'Run a batch command, record its rc and duration in a status file, always exit 0'
            cand analyze 'The final step: derive each job''s outcome, upload flakiness-outcomes.json, annotate'
            cand triage 'The triage step (with --triage / FLAKINESS_TRIAGE): replay the failing tests, annotate'
            cand precompile 'Compile the selected source sets in $FLAKINESS_PRECOMPILE; on failure write flakiness-precompile.json'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'gradle-flaky;buildkite;upload'= {
            cand --base 'Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH, else origin/main, else main'
            cand --muted-file 'The muted-tests file, relative to the project dir'
            cand --iters 'Iterations for every kind (sets unit, integ and REST counts)'
            cand --unit-iters '-Dtests.iters for unit tests and custom source sets [default: 100]'
            cand --integ-iters '-Dtests.iters for internalClusterTest [default: 20]'
            cand --rest-iters 'Gradle invocations per REST batch [default: 10]'
            cand --suite-timeout 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 1h]'
            cand --cap 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2'
            cand --detect-rate 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence'
            cand --confidence 'Confidence for --detect-rate'
            cand --agent 'Agent selector for batch steps, as KEY=VALUE (repeatable or comma-separated)'
            cand --step-timeout 'Step timeout of each batch step, in minutes'
            cand --agent-bin 'How agents run gradle-flaky itself (a path or command on the agent)'
            cand --group 'Group name of the uploaded steps'
            cand --triage 'After the run, replay each failing test N times per failing seed (up to 3 seeds, the seed pinned), or alone N times when it has no seed, and say what kind of flaky it is (0: off)'
            cand --triage-budget 'The most replays triage runs in all, every test and seed together [default: 100]'
            cand --triage-timeout 'The most time triage takes; a replay still running then is stopped (90s, 20m, 1h) [default: 30m]'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --changed 'Add test files changed against the merge base'
            cand --unmuted 'Add entries removed from muted-tests.yml against the merge base'
            cand --refresh-layout 'Re-read the layout from Gradle instead of the cache'
            cand --dry-run 'Print the pipeline JSON instead of uploading it'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;buildkite;wrap'= {
            cand --status-dir 'Where status-<jobId>.json is written'
            cand --kind 'The batch''s kind, recorded in the status file'
            cand --timeout 'Stop the command after DURATION (every process it started: SIGTERM, then SIGKILL); rc 124'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --from-env 'Run the batch in $FLAKINESS_BATCH_<n> (JSON; n = $BUILDKITE_PARALLEL_JOB, default 0), as an uploaded pipeline does'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;buildkite;analyze'= {
            cand --work-dir 'Where downloaded status files and per-job XML are kept'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;buildkite;triage'= {
            cand --work-dir 'Where downloaded status files, per-job XML and the replays are kept'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;buildkite;precompile'= {
            cand --timeout 'Stop Gradle after DURATION'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;buildkite;help'= {
            cand upload 'Upload the sub-pipeline for a selection (pipe to `buildkite-agent pipeline upload`)'
            cand wrap 'Run a batch command, record its rc and duration in a status file, always exit 0'
            cand analyze 'The final step: derive each job''s outcome, upload flakiness-outcomes.json, annotate'
            cand triage 'The triage step (with --triage / FLAKINESS_TRIAGE): replay the failing tests, annotate'
            cand precompile 'Compile the selected source sets in $FLAKINESS_PRECOMPILE; on failure write flakiness-precompile.json'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'gradle-flaky;buildkite;help;upload'= {
        }
        &'gradle-flaky;buildkite;help;wrap'= {
        }
        &'gradle-flaky;buildkite;help;analyze'= {
        }
        &'gradle-flaky;buildkite;help;triage'= {
        }
        &'gradle-flaky;buildkite;help;precompile'= {
        }
        &'gradle-flaky;buildkite;help;help'= {
        }
        &'gradle-flaky;triage'= {
            cand --replays 'Replays of each failing seed (or of a test without seeds, alone)'
            cand --triage-budget 'The most replays triage runs in all, every test and seed together [default: 100]'
            cand --triage-timeout 'The most time triage takes; a replay still running then is stopped (90s, 20m, 1h) [default: 30m]'
            cand --format 'Report format on stdout'
            cand --report 'Also write the report to FILE (in --format)'
            cand --junit 'Also write one merged Surefire-style JUnit XML file (flakyFailure/rerunFailure)'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;repeat'= {
            cand --times 'How many times to run the command'
            cand --timeout 'Kill an iteration that runs longer than this, with its whole process group'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;layout'= {
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --refresh 'Ask Gradle again instead of using the cache'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;man'= {
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;completions'= {
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;help'= {
            cand local 'Select, plan and run tests on this machine, then print the report'
            cand plan 'Show what would run, and what a clean result would prove; run nothing'
            cand pr 'Changed tests and unmutes of this branch, run here or uploaded to Buildkite'
            cand manual 'CI entry driven by FLAKINESS_* variables (the manual Buildkite pipeline)'
            cand analyze 'Read JUnit XML under DIR and print the flakiness report'
            cand buildkite 'Buildkite: upload the sub-pipeline, wrap a batch, or run the final analyze step'
            cand triage 'Replay the failing tests of a finished run and say what kind of flaky each one is'
            cand repeat 'Run one Gradle invocation N times, keeping every iteration''s JUnit XML'
            cand layout 'Print the build as Gradle sees it (projects, source sets, test tasks) as JSON'
            cand man 'Print the man page (roff) to stdout'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'gradle-flaky;help;local'= {
        }
        &'gradle-flaky;help;plan'= {
        }
        &'gradle-flaky;help;pr'= {
        }
        &'gradle-flaky;help;manual'= {
        }
        &'gradle-flaky;help;analyze'= {
        }
        &'gradle-flaky;help;buildkite'= {
            cand upload 'Upload the sub-pipeline for a selection (pipe to `buildkite-agent pipeline upload`)'
            cand wrap 'Run a batch command, record its rc and duration in a status file, always exit 0'
            cand analyze 'The final step: derive each job''s outcome, upload flakiness-outcomes.json, annotate'
            cand triage 'The triage step (with --triage / FLAKINESS_TRIAGE): replay the failing tests, annotate'
            cand precompile 'Compile the selected source sets in $FLAKINESS_PRECOMPILE; on failure write flakiness-precompile.json'
        }
        &'gradle-flaky;help;buildkite;upload'= {
        }
        &'gradle-flaky;help;buildkite;wrap'= {
        }
        &'gradle-flaky;help;buildkite;analyze'= {
        }
        &'gradle-flaky;help;buildkite;triage'= {
        }
        &'gradle-flaky;help;buildkite;precompile'= {
        }
        &'gradle-flaky;help;triage'= {
        }
        &'gradle-flaky;help;repeat'= {
        }
        &'gradle-flaky;help;layout'= {
        }
        &'gradle-flaky;help;man'= {
        }
        &'gradle-flaky;help;completions'= {
        }
        &'gradle-flaky;help;help'= {
        }
    ]
    $completions[$command]
}
