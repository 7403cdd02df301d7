# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_gradle_flaky_global_optspecs
    string join \n project-dir= gradle= v/verbose isolate layout-timeout= h/help V/version
end

function __fish_gradle_flaky_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_gradle_flaky_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_gradle_flaky_using_subcommand
    set -l cmd (__fish_gradle_flaky_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -s V -l version -d 'Print version'
complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -f -a "local" -d 'Select, plan and run tests on this machine, then print the report'
complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -f -a "plan" -d 'Show what would run, and what a clean result would prove; run nothing'
complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -f -a "pr" -d 'Changed tests and unmutes of this branch, run here, uploaded to Buildkite, or planned for GitHub Actions'
complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -f -a "manual" -d 'CI entry driven by FLAKINESS_* variables (the manual Buildkite pipeline or GitHub workflow)'
complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -f -a "analyze" -d 'Read JUnit XML under DIR and print the flakiness report'
complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -f -a "buildkite" -d 'Buildkite: upload the sub-pipeline, wrap a batch, or run the final analyze step'
complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -f -a "github" -d 'GitHub Actions: print the workflow, run one matrix batch, or write the report job\'s summary'
complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -f -a "triage" -d 'Replay the failing tests of a finished run and say what kind of flaky each one is'
complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -f -a "repeat" -d 'Run one Gradle invocation N times, keeping every iteration\'s JUnit XML'
complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -f -a "layout" -d 'Print the build as Gradle sees it (projects, source sets, test tasks) as JSON'
complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -f -a "man" -d 'Print the man page (roff) to stdout'
complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c gradle-flaky -n "__fish_gradle_flaky_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l base -d 'Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH or $GITHUB_BASE_REF, else origin/main, else main' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l muted-file -d 'The muted-tests file, relative to the project dir' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l task-cap -d 'Test tasks run per class when its source set\'s own task is disabled and several others run it (BWC versions, newest first)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l subclass-cap -d 'Concrete subclasses run per abstract base class (spread over projects)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l iters -d 'Iterations for every kind (sets unit, integ and REST counts)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l unit-iters -d 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l integ-iters -d 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l rest-iters -d 'Gradle invocations per REST batch [default: 10]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l suite-timeout -d 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 1h]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l repetition -d 'How tests repeat: in one test JVM (TestNG invocationCount, gradle-flaky\'s JUnit 4 runner, the randomizedtesting runner\'s -Dtests.iters; the JUnit Platform engine only with in-jvm), or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow' -r -f -a "auto\t'In one test JVM where the framework\'s mechanism is verified on Gradle, else Gradle runs'
in-jvm\t'In one test JVM wherever a mechanism exists (also the JUnit Platform\'s engine)'
gradle-runs\t'One Gradle run (a fresh test JVM) per iteration'"
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l cap -d 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l detect-rate -d 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l confidence -d 'Confidence for --detect-rate' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l format -d 'Report format on stdout' -r -f -a "markdown\t''
json\t''"
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l report -d 'Also write the report to FILE (in --format)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l junit -d 'Also write one merged Surefire-style JUnit XML file (flakyFailure/rerunFailure)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l triage -d 'After the run, replay each failing test N times per failing seed (up to 3 seeds, the seed pinned), or alone N times when it has no seed, and say what kind of flaky it is (0: off). Here and on Buildkite (a triage step); not with --target github' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l triage-budget -d 'The most replays triage runs in all, every test and seed together [default: 100]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l triage-timeout -d 'The most time triage takes; a replay still running then is stopped (90s, 20m, 1h) [default: 30m]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l batch-timeout -d 'Stop a Gradle invocation (a batch, or one REST iteration) that runs longer than this (default: suite timeout plus 10 minutes)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l changed -d 'Add test files changed against the merge base'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l unmuted -d 'Add entries removed from muted-tests.yml against the merge base'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l refresh-layout -d 'Re-read the layout from Gradle instead of the cache'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l allow-host-mutating-tasks -d 'Also run host-mutating Test tasks (named destructive*: they install packages and change services on this machine). Only on a disposable packaging host'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand local" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l base -d 'Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH or $GITHUB_BASE_REF, else origin/main, else main' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l muted-file -d 'The muted-tests file, relative to the project dir' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l task-cap -d 'Test tasks run per class when its source set\'s own task is disabled and several others run it (BWC versions, newest first)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l subclass-cap -d 'Concrete subclasses run per abstract base class (spread over projects)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l iters -d 'Iterations for every kind (sets unit, integ and REST counts)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l unit-iters -d 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l integ-iters -d 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l rest-iters -d 'Gradle invocations per REST batch [default: 10]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l suite-timeout -d 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 1h]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l repetition -d 'How tests repeat: in one test JVM (TestNG invocationCount, gradle-flaky\'s JUnit 4 runner, the randomizedtesting runner\'s -Dtests.iters; the JUnit Platform engine only with in-jvm), or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow' -r -f -a "auto\t'In one test JVM where the framework\'s mechanism is verified on Gradle, else Gradle runs'
in-jvm\t'In one test JVM wherever a mechanism exists (also the JUnit Platform\'s engine)'
gradle-runs\t'One Gradle run (a fresh test JVM) per iteration'"
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l cap -d 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l detect-rate -d 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l confidence -d 'Confidence for --detect-rate' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l format -d 'Output: text for people, json (the plan JSON of docs/src/reference/json.md), or shell (one POSIX-quoted command a line)' -r -f -a "text\t''
json\t''
shell\t''"
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l changed -d 'Add test files changed against the merge base'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l unmuted -d 'Add entries removed from muted-tests.yml against the merge base'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l refresh-layout -d 'Re-read the layout from Gradle instead of the cache'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l allow-host-mutating-tasks -d 'Also run host-mutating Test tasks (named destructive*: they install packages and change services on this machine). Only on a disposable packaging host'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand plan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l base -d 'Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH or $GITHUB_BASE_REF, else origin/main, else main' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l target -d 'Where the tests run (default: github when $GITHUB_ACTIONS is set, buildkite when $BUILDKITE is, else local)' -r -f -a "local\t'Run the tests here and print the report'
buildkite\t'Upload a Buildkite sub-pipeline'
github\t'Write the GitHub Actions matrix, plan file and step summary'"
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l muted-file -d 'The muted-tests file, relative to the project dir' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l task-cap -d 'Test tasks run per class when its source set\'s own task is disabled and several others run it (BWC versions, newest first)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l subclass-cap -d 'Concrete subclasses run per abstract base class (spread over projects)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l iters -d 'Iterations for every kind (sets unit, integ and REST counts)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l unit-iters -d 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l integ-iters -d 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l rest-iters -d 'Gradle invocations per REST batch [default: 10]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l suite-timeout -d 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 1h]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l repetition -d 'How tests repeat: in one test JVM (TestNG invocationCount, gradle-flaky\'s JUnit 4 runner, the randomizedtesting runner\'s -Dtests.iters; the JUnit Platform engine only with in-jvm), or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow' -r -f -a "auto\t'In one test JVM where the framework\'s mechanism is verified on Gradle, else Gradle runs'
in-jvm\t'In one test JVM wherever a mechanism exists (also the JUnit Platform\'s engine)'
gradle-runs\t'One Gradle run (a fresh test JVM) per iteration'"
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l cap -d 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l detect-rate -d 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l confidence -d 'Confidence for --detect-rate' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l format -d 'Report format on stdout' -r -f -a "markdown\t''
json\t''"
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l report -d 'Also write the report to FILE (in --format)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l junit -d 'Also write one merged Surefire-style JUnit XML file (flakyFailure/rerunFailure)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l agent -d 'Agent selector for batch steps, as KEY=VALUE (repeatable or comma-separated)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l step-timeout -d 'Step timeout of each batch step, in minutes' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l agent-bin -d 'How agents run gradle-flaky itself (a path or command on the agent)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l group -d 'Group name of the uploaded steps' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l blocking-labels -d 'Pull-request labels that opt in to blocking (comma-separated, exact and case-sensitive): on a PR carrying one, proven flakiness fails the report step; default: never block' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l proven-exit-code -d 'The exit code of a blocked report step: 3 to 125, not 124 (required with --blocking-labels)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l triage -d 'After the run, replay each failing test N times per failing seed (up to 3 seeds, the seed pinned), or alone N times when it has no seed, and say what kind of flaky it is (0: off). Here and on Buildkite (a triage step); not with --target github' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l triage-budget -d 'The most replays triage runs in all, every test and seed together [default: 100]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l triage-timeout -d 'The most time triage takes; a replay still running then is stopped (90s, 20m, 1h) [default: 30m]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l batch-timeout -d 'Stop a local Gradle invocation (a batch, or one REST iteration) that runs longer than this (default: suite timeout plus 10 minutes)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l allow-host-mutating-tasks -d 'Also run host-mutating Test tasks (named destructive*: they install packages and change services on this machine). Only on a disposable packaging host'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l dry-run -d 'Print the pipeline (Buildkite) or the plan file (GitHub) instead of publishing it'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand pr" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l task-cap -d 'Test tasks run per class when its source set\'s own task is disabled and several others run it (BWC versions, newest first)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l subclass-cap -d 'Concrete subclasses run per abstract base class (spread over projects)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l iters -d 'Iterations for every kind (sets unit, integ and REST counts)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l unit-iters -d 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l integ-iters -d 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l rest-iters -d 'Gradle invocations per REST batch [default: 10]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l suite-timeout -d 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 1h]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l repetition -d 'How tests repeat: in one test JVM (TestNG invocationCount, gradle-flaky\'s JUnit 4 runner, the randomizedtesting runner\'s -Dtests.iters; the JUnit Platform engine only with in-jvm), or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow' -r -f -a "auto\t'In one test JVM where the framework\'s mechanism is verified on Gradle, else Gradle runs'
in-jvm\t'In one test JVM wherever a mechanism exists (also the JUnit Platform\'s engine)'
gradle-runs\t'One Gradle run (a fresh test JVM) per iteration'"
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l cap -d 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l detect-rate -d 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l confidence -d 'Confidence for --detect-rate' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l agent -d 'Agent selector for batch steps, as KEY=VALUE (repeatable or comma-separated)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l step-timeout -d 'Step timeout of each batch step, in minutes' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l agent-bin -d 'How agents run gradle-flaky itself (a path or command on the agent)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l group -d 'Group name of the uploaded steps' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l blocking-labels -d 'Pull-request labels that opt in to blocking (comma-separated, exact and case-sensitive): on a PR carrying one, proven flakiness fails the report step; default: never block' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l proven-exit-code -d 'The exit code of a blocked report step: 3 to 125, not 124 (required with --blocking-labels)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l triage -d 'After the run, replay each failing test N times per failing seed (up to 3 seeds, the seed pinned), or alone N times when it has no seed, and say what kind of flaky it is (0: off). Here and on Buildkite (a triage step); not with --target github' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l triage-budget -d 'The most replays triage runs in all, every test and seed together [default: 100]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l triage-timeout -d 'The most time triage takes; a replay still running then is stopped (90s, 20m, 1h) [default: 30m]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l target -d 'The CI to hand the tests to: buildkite or github (default: github when $GITHUB_ACTIONS is set, else buildkite)' -r -f -a "local\t'Run the tests here and print the report'
buildkite\t'Upload a Buildkite sub-pipeline'
github\t'Write the GitHub Actions matrix, plan file and step summary'"
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l allow-host-mutating-tasks -d 'Also run host-mutating Test tasks (named destructive*: they install packages and change services on this machine). Only on a disposable packaging host'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l dry-run -d 'Print the pipeline (Buildkite) or the plan file (GitHub) instead of publishing it'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand manual" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand analyze" -l since -d 'Skip reports older than TIME (RFC 3339 or seconds since the epoch) or than FILE\'s mtime' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand analyze" -l format -d 'Report format on stdout' -r -f -a "markdown\t''
json\t''"
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand analyze" -l report -d 'Also write the report to FILE (in --format)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand analyze" -l junit -d 'Also write one merged Surefire-style JUnit XML file (flakyFailure/rerunFailure)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand analyze" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand analyze" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand analyze" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand analyze" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand analyze" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand analyze" -s h -l help -d 'Print help'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and not __fish_seen_subcommand_from upload wrap analyze triage precompile help" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and not __fish_seen_subcommand_from upload wrap analyze triage precompile help" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and not __fish_seen_subcommand_from upload wrap analyze triage precompile help" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and not __fish_seen_subcommand_from upload wrap analyze triage precompile help" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and not __fish_seen_subcommand_from upload wrap analyze triage precompile help" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and not __fish_seen_subcommand_from upload wrap analyze triage precompile help" -s h -l help -d 'Print help'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and not __fish_seen_subcommand_from upload wrap analyze triage precompile help" -f -a "upload" -d 'Upload the sub-pipeline for a selection (pipe to `buildkite-agent pipeline upload`)'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and not __fish_seen_subcommand_from upload wrap analyze triage precompile help" -f -a "wrap" -d 'Run a batch command, record its rc and duration in a status file, always exit 0'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and not __fish_seen_subcommand_from upload wrap analyze triage precompile help" -f -a "analyze" -d 'The final step: derive each job\'s outcome, upload flakiness-outcomes.json, annotate'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and not __fish_seen_subcommand_from upload wrap analyze triage precompile help" -f -a "triage" -d 'The triage step (with --triage / FLAKINESS_TRIAGE): replay the failing tests, annotate'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and not __fish_seen_subcommand_from upload wrap analyze triage precompile help" -f -a "precompile" -d 'Compile the selected source sets in $FLAKINESS_PRECOMPILE; on failure write flakiness-precompile.json'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and not __fish_seen_subcommand_from upload wrap analyze triage precompile help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l base -d 'Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH or $GITHUB_BASE_REF, else origin/main, else main' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l muted-file -d 'The muted-tests file, relative to the project dir' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l task-cap -d 'Test tasks run per class when its source set\'s own task is disabled and several others run it (BWC versions, newest first)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l subclass-cap -d 'Concrete subclasses run per abstract base class (spread over projects)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l iters -d 'Iterations for every kind (sets unit, integ and REST counts)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l unit-iters -d 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l integ-iters -d 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l rest-iters -d 'Gradle invocations per REST batch [default: 10]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l suite-timeout -d 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 1h]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l repetition -d 'How tests repeat: in one test JVM (TestNG invocationCount, gradle-flaky\'s JUnit 4 runner, the randomizedtesting runner\'s -Dtests.iters; the JUnit Platform engine only with in-jvm), or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow' -r -f -a "auto\t'In one test JVM where the framework\'s mechanism is verified on Gradle, else Gradle runs'
in-jvm\t'In one test JVM wherever a mechanism exists (also the JUnit Platform\'s engine)'
gradle-runs\t'One Gradle run (a fresh test JVM) per iteration'"
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l cap -d 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l detect-rate -d 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l confidence -d 'Confidence for --detect-rate' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l agent -d 'Agent selector for batch steps, as KEY=VALUE (repeatable or comma-separated)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l step-timeout -d 'Step timeout of each batch step, in minutes' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l agent-bin -d 'How agents run gradle-flaky itself (a path or command on the agent)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l group -d 'Group name of the uploaded steps' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l blocking-labels -d 'Pull-request labels that opt in to blocking (comma-separated, exact and case-sensitive): on a PR carrying one, proven flakiness fails the report step; default: never block' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l proven-exit-code -d 'The exit code of a blocked report step: 3 to 125, not 124 (required with --blocking-labels)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l triage -d 'After the run, replay each failing test N times per failing seed (up to 3 seeds, the seed pinned), or alone N times when it has no seed, and say what kind of flaky it is (0: off). Here and on Buildkite (a triage step); not with --target github' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l triage-budget -d 'The most replays triage runs in all, every test and seed together [default: 100]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l triage-timeout -d 'The most time triage takes; a replay still running then is stopped (90s, 20m, 1h) [default: 30m]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l changed -d 'Add test files changed against the merge base'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l unmuted -d 'Add entries removed from muted-tests.yml against the merge base'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l refresh-layout -d 'Re-read the layout from Gradle instead of the cache'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l allow-host-mutating-tasks -d 'Also run host-mutating Test tasks (named destructive*: they install packages and change services on this machine). Only on a disposable packaging host'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l dry-run -d 'Print the pipeline JSON instead of uploading it'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from upload" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from wrap" -l status-dir -d 'Where status-<jobId>.json is written' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from wrap" -l kind -d 'The batch\'s kind, recorded in the status file' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from wrap" -l timeout -d 'Stop the command after DURATION (every process it started: SIGTERM, then SIGKILL); rc 124' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from wrap" -l pass-exit-code -d 'Exit with the command\'s rc when it is CODE (the report step\'s opt-in blocking), else 0 as always' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from wrap" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from wrap" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from wrap" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from wrap" -l from-env -d 'Run the batch in $FLAKINESS_BATCH_<n> (JSON; n = $BUILDKITE_PARALLEL_JOB, default 0), as an uploaded pipeline does'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from wrap" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from wrap" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from wrap" -s h -l help -d 'Print help'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from analyze" -l work-dir -d 'Where downloaded status files and per-job XML are kept' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from analyze" -l blocking-labels -d 'Pull-request labels that opt in to blocking (comma-separated, exact and case-sensitive): on a PR carrying one, proven flakiness fails the report step; default: never block' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from analyze" -l proven-exit-code -d 'The exit code of a blocked report step: 3 to 125, not 124 (required with --blocking-labels)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from analyze" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from analyze" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from analyze" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from analyze" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from analyze" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from analyze" -s h -l help -d 'Print help'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from triage" -l work-dir -d 'Where downloaded status files, per-job XML and the replays are kept' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from triage" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from triage" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from triage" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from triage" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from triage" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from triage" -s h -l help -d 'Print help'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from precompile" -l timeout -d 'Stop Gradle after DURATION' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from precompile" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from precompile" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from precompile" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from precompile" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from precompile" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from precompile" -s h -l help -d 'Print help'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from help" -f -a "upload" -d 'Upload the sub-pipeline for a selection (pipe to `buildkite-agent pipeline upload`)'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from help" -f -a "wrap" -d 'Run a batch command, record its rc and duration in a status file, always exit 0'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from help" -f -a "analyze" -d 'The final step: derive each job\'s outcome, upload flakiness-outcomes.json, annotate'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from help" -f -a "triage" -d 'The triage step (with --triage / FLAKINESS_TRIAGE): replay the failing tests, annotate'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from help" -f -a "precompile" -d 'Compile the selected source sets in $FLAKINESS_PRECOMPILE; on failure write flakiness-precompile.json'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand buildkite; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and not __fish_seen_subcommand_from workflow run analyze help" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and not __fish_seen_subcommand_from workflow run analyze help" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and not __fish_seen_subcommand_from workflow run analyze help" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and not __fish_seen_subcommand_from workflow run analyze help" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and not __fish_seen_subcommand_from workflow run analyze help" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and not __fish_seen_subcommand_from workflow run analyze help" -s h -l help -d 'Print help'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and not __fish_seen_subcommand_from workflow run analyze help" -f -a "workflow" -d 'Print a GitHub Actions workflow that runs the flakiness check (plan, a matrix of batches, the report)'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and not __fish_seen_subcommand_from workflow run analyze help" -f -a "run" -d 'Run one batch of the plan (a matrix job): record rc, duration and heap dumps, keep its XML, always exit 0'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and not __fish_seen_subcommand_from workflow run analyze help" -f -a "analyze" -d 'The report job: each batch\'s outcome, the report in the job summary, annotations, flakiness-outcomes.json'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and not __fish_seen_subcommand_from workflow run analyze help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l on -d 'What starts the workflow (repeatable or comma-separated)' -r -f -a "pull-request\t'`pull_request`: the branch\'s changed tests and unmutes (`gradle-flaky pr`)'
manual\t'`workflow_dispatch` with a `classes` input (`gradle-flaky manual`), like the manual Buildkite pipeline'"
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l iters -d 'Iterations for every kind (sets unit, integ and REST counts)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l unit-iters -d 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l integ-iters -d 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l rest-iters -d 'Gradle invocations per REST batch [default: 10]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l suite-timeout -d 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 1h]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l repetition -d 'How tests repeat: in one test JVM (TestNG invocationCount, gradle-flaky\'s JUnit 4 runner, the randomizedtesting runner\'s -Dtests.iters; the JUnit Platform engine only with in-jvm), or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow' -r -f -a "auto\t'In one test JVM where the framework\'s mechanism is verified on Gradle, else Gradle runs'
in-jvm\t'In one test JVM wherever a mechanism exists (also the JUnit Platform\'s engine)'
gradle-runs\t'One Gradle run (a fresh test JVM) per iteration'"
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l cap -d 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l detect-rate -d 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l confidence -d 'Confidence for --detect-rate' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l muted-file -d 'The muted-tests file, relative to the project dir' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l runs-on -d 'The runner label of every job' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l java -d 'The JDK version actions/setup-java installs' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l java-distribution -d 'The JDK distribution actions/setup-java installs' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l gradle-version -d 'A Gradle version for setup-gradle to install, for a build without a wrapper (default: the build\'s ./gradlew)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l job-timeout -d 'Minutes of each batch job; the batch itself is stopped 2 minutes earlier' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l install -d 'Shell command that puts gradle-flaky on PATH (default: `cargo install --locked gradle-flaky --version <this version>`, cached)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l blocking-labels -d 'Pull-request labels that opt in to blocking (comma-separated, exact and case-sensitive): on a PR carrying one, proven flakiness fails the report step; default: never block' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l proven-exit-code -d 'The exit code of a blocked report step: 3 to 125, not 124 (required with --blocking-labels)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l exit-code -d 'Fail the report job with the report\'s exit code (1 flaky, 3 no trustworthy result) on every pull request; default: report, don\'t block. With --blocking-labels: only labelled pull requests, only proven flakiness'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from workflow" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from run" -l batch -d 'The batch to run: the matrix entry\'s `batch`, an index into the plan' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from run" -l plan -d 'The plan written by `pr --target github` or `manual --target github`' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from run" -l out -d 'Where the status file and the batch\'s JUnit XML are put (must be empty), to upload' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from run" -l timeout -d 'Stop the batch after DURATION (every process it started: SIGTERM, then SIGKILL); rc 124' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from run" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from run" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from run" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from run" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from run" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from run" -s h -l help -d 'Print help'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from analyze" -l outcomes -d 'Where the outcomes JSON (one payload per batch job) is written' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from analyze" -l sources -d 'The checkout, where failing tests\' sources are found for annotations' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from analyze" -l blocking-labels -d 'Pull-request labels that opt in to blocking (comma-separated, exact and case-sensitive): on a PR carrying one, proven flakiness fails the report step; default: never block' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from analyze" -l proven-exit-code -d 'The exit code of a blocked report step: 3 to 125, not 124 (required with --blocking-labels)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from analyze" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from analyze" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from analyze" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from analyze" -l exit-code -d 'Exit with the report\'s exit code (1 flaky, 3 no trustworthy result) instead of 0. With --blocking-labels: only on a labelled pull request, only for proven flakiness'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from analyze" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from analyze" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from analyze" -s h -l help -d 'Print help'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from help" -f -a "workflow" -d 'Print a GitHub Actions workflow that runs the flakiness check (plan, a matrix of batches, the report)'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from help" -f -a "run" -d 'Run one batch of the plan (a matrix job): record rc, duration and heap dumps, keep its XML, always exit 0'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from help" -f -a "analyze" -d 'The report job: each batch\'s outcome, the report in the job summary, annotations, flakiness-outcomes.json'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand github; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand triage" -l replays -d 'Replays of each failing seed (or of a test without seeds, alone)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand triage" -l triage-budget -d 'The most replays triage runs in all, every test and seed together [default: 100]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand triage" -l triage-timeout -d 'The most time triage takes; a replay still running then is stopped (90s, 20m, 1h) [default: 30m]' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand triage" -l format -d 'Report format on stdout' -r -f -a "markdown\t''
json\t''"
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand triage" -l report -d 'Also write the report to FILE (in --format)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand triage" -l junit -d 'Also write one merged Surefire-style JUnit XML file (flakyFailure/rerunFailure)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand triage" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand triage" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand triage" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand triage" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand triage" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand triage" -s h -l help -d 'Print help'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand repeat" -l times -d 'How many times to run the command' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand repeat" -l timeout -d 'Stop an iteration that runs longer than this (its build and test JVMs, never your daemon), and end the loop' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand repeat" -l task-outcomes -d 'Write each iteration\'s task outcomes to DIR/iter-<i>.json (a Buildkite batch reads them)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand repeat" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand repeat" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand repeat" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand repeat" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand repeat" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand repeat" -s h -l help -d 'Print help'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand layout" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand layout" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand layout" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand layout" -l refresh -d 'Ask Gradle again instead of using the cache'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand layout" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand layout" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand layout" -s h -l help -d 'Print help'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand man" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand man" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand man" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand man" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand man" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand man" -s h -l help -d 'Print help'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand completions" -l project-dir -d 'Root of the Gradle build (where settings.gradle is)' -r -F
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand completions" -l gradle -d 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand completions" -l layout-timeout -d 'Stop reading the build\'s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)' -r
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand completions" -s v -l verbose -d 'Stream Gradle\'s output instead of showing progress'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand completions" -l isolate -d 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build\'s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand completions" -s h -l help -d 'Print help'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and not __fish_seen_subcommand_from local plan pr manual analyze buildkite github triage repeat layout man completions help" -f -a "local" -d 'Select, plan and run tests on this machine, then print the report'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and not __fish_seen_subcommand_from local plan pr manual analyze buildkite github triage repeat layout man completions help" -f -a "plan" -d 'Show what would run, and what a clean result would prove; run nothing'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and not __fish_seen_subcommand_from local plan pr manual analyze buildkite github triage repeat layout man completions help" -f -a "pr" -d 'Changed tests and unmutes of this branch, run here, uploaded to Buildkite, or planned for GitHub Actions'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and not __fish_seen_subcommand_from local plan pr manual analyze buildkite github triage repeat layout man completions help" -f -a "manual" -d 'CI entry driven by FLAKINESS_* variables (the manual Buildkite pipeline or GitHub workflow)'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and not __fish_seen_subcommand_from local plan pr manual analyze buildkite github triage repeat layout man completions help" -f -a "analyze" -d 'Read JUnit XML under DIR and print the flakiness report'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and not __fish_seen_subcommand_from local plan pr manual analyze buildkite github triage repeat layout man completions help" -f -a "buildkite" -d 'Buildkite: upload the sub-pipeline, wrap a batch, or run the final analyze step'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and not __fish_seen_subcommand_from local plan pr manual analyze buildkite github triage repeat layout man completions help" -f -a "github" -d 'GitHub Actions: print the workflow, run one matrix batch, or write the report job\'s summary'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and not __fish_seen_subcommand_from local plan pr manual analyze buildkite github triage repeat layout man completions help" -f -a "triage" -d 'Replay the failing tests of a finished run and say what kind of flaky each one is'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and not __fish_seen_subcommand_from local plan pr manual analyze buildkite github triage repeat layout man completions help" -f -a "repeat" -d 'Run one Gradle invocation N times, keeping every iteration\'s JUnit XML'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and not __fish_seen_subcommand_from local plan pr manual analyze buildkite github triage repeat layout man completions help" -f -a "layout" -d 'Print the build as Gradle sees it (projects, source sets, test tasks) as JSON'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and not __fish_seen_subcommand_from local plan pr manual analyze buildkite github triage repeat layout man completions help" -f -a "man" -d 'Print the man page (roff) to stdout'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and not __fish_seen_subcommand_from local plan pr manual analyze buildkite github triage repeat layout man completions help" -f -a "completions" -d 'Print a shell completion script'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and not __fish_seen_subcommand_from local plan pr manual analyze buildkite github triage repeat layout man completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and __fish_seen_subcommand_from buildkite" -f -a "upload" -d 'Upload the sub-pipeline for a selection (pipe to `buildkite-agent pipeline upload`)'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and __fish_seen_subcommand_from buildkite" -f -a "wrap" -d 'Run a batch command, record its rc and duration in a status file, always exit 0'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and __fish_seen_subcommand_from buildkite" -f -a "analyze" -d 'The final step: derive each job\'s outcome, upload flakiness-outcomes.json, annotate'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and __fish_seen_subcommand_from buildkite" -f -a "triage" -d 'The triage step (with --triage / FLAKINESS_TRIAGE): replay the failing tests, annotate'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and __fish_seen_subcommand_from buildkite" -f -a "precompile" -d 'Compile the selected source sets in $FLAKINESS_PRECOMPILE; on failure write flakiness-precompile.json'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and __fish_seen_subcommand_from github" -f -a "workflow" -d 'Print a GitHub Actions workflow that runs the flakiness check (plan, a matrix of batches, the report)'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and __fish_seen_subcommand_from github" -f -a "run" -d 'Run one batch of the plan (a matrix job): record rc, duration and heap dumps, keep its XML, always exit 0'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand help; and __fish_seen_subcommand_from github" -f -a "analyze" -d 'The report job: each batch\'s outcome, the report in the job summary, annotations, flakiness-outcomes.json'
complete -c gradle-flaky -n "__fish_gradle_flaky_using_subcommand completions" -f -a "bash zsh fish powershell elvish"
