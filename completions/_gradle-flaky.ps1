
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'gradle-flaky' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'gradle-flaky'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'gradle-flaky' {
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('local', 'local', [CompletionResultType]::ParameterValue, 'Select, plan and run tests on this machine, then print the report')
            [CompletionResult]::new('bisect', 'bisect', [CompletionResultType]::ParameterValue, 'Find the commit that made a test flaky: bisect the first-parent line between a good and a bad commit, each point run as often as an exact test needs')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Show what would run, and what a clean result would prove; run nothing')
            [CompletionResult]::new('pr', 'pr', [CompletionResultType]::ParameterValue, 'Changed tests and unmutes of this branch, run here, uploaded to Buildkite, or planned for GitHub Actions')
            [CompletionResult]::new('manual', 'manual', [CompletionResultType]::ParameterValue, 'CI entry driven by FLAKINESS_* variables (the manual Buildkite pipeline or GitHub workflow)')
            [CompletionResult]::new('analyze', 'analyze', [CompletionResultType]::ParameterValue, 'Read JUnit XML under DIR and print the flakiness report')
            [CompletionResult]::new('buildkite', 'buildkite', [CompletionResultType]::ParameterValue, 'Buildkite: upload the sub-pipeline, wrap a batch, or run the final analyze step')
            [CompletionResult]::new('github', 'github', [CompletionResultType]::ParameterValue, 'GitHub Actions: print the workflow, run one matrix batch, or write the report job''s summary')
            [CompletionResult]::new('triage', 'triage', [CompletionResultType]::ParameterValue, 'Replay the failing tests of a finished run and say what kind of flaky each one is')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'Show what the run ledger holds of tests: rates by commit and condition, trend, the newest commit against its first-parent ancestors')
            [CompletionResult]::new('record', 'record', [CompletionResultType]::ParameterValue, 'Add an ordinary build''s test results to the run ledger: each test once, in its whole task')
            [CompletionResult]::new('suspects', 'suspects', [CompletionResultType]::ParameterValue, 'Tell flaky from broken from the ledger''s runs, with nothing re-run; show tests that fail together')
            [CompletionResult]::new('repeat', 'repeat', [CompletionResultType]::ParameterValue, 'Run one Gradle invocation N times, keeping every iteration''s JUnit XML')
            [CompletionResult]::new('layout', 'layout', [CompletionResultType]::ParameterValue, 'Print the build as Gradle sees it (projects, source sets, test tasks) as JSON')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff) to stdout')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'gradle-flaky;local' {
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH or $GITHUB_BASE_REF, else origin/main, else main')
            [CompletionResult]::new('--muted-file', '--muted-file', [CompletionResultType]::ParameterName, 'The muted-tests file, relative to the project dir')
            [CompletionResult]::new('--task-cap', '--task-cap', [CompletionResultType]::ParameterName, 'Test tasks run per class when its source set''s own task is disabled and several others run it (BWC versions, newest first)')
            [CompletionResult]::new('--subclass-cap', '--subclass-cap', [CompletionResultType]::ParameterName, 'Concrete subclasses run per abstract base class, or per changed concrete test class (spread over projects); those left out are reported as not checked')
            [CompletionResult]::new('--iters', '--iters', [CompletionResultType]::ParameterName, 'Iterations for every kind (sets unit, integ and REST counts)')
            [CompletionResult]::new('--unit-iters', '--unit-iters', [CompletionResultType]::ParameterName, 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]')
            [CompletionResult]::new('--integ-iters', '--integ-iters', [CompletionResultType]::ParameterName, 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]')
            [CompletionResult]::new('--rest-iters', '--rest-iters', [CompletionResultType]::ParameterName, 'Gradle invocations per REST batch [default: 10]')
            [CompletionResult]::new('--suite-timeout', '--suite-timeout', [CompletionResultType]::ParameterName, 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 60m]')
            [CompletionResult]::new('--repetition', '--repetition', [CompletionResultType]::ParameterName, 'How tests repeat: in test JVMs (TestNG invocationCount, gradle-flaky''s JUnit 4 runner, the randomizedtesting runner''s -Dtests.iters; the JUnit Platform engine only with in-jvm), each class''s iterations spread over several fresh JVMs of one Gradle invocation, or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow; and when a chunk''s iterations in one JVM cost more than fresh Gradle runs (on average, or its last ones each: state accumulating in the JVM), the rest of its batch runs as Gradle runs, said in the run and the report (in-jvm stays, and says what it cost); the build''s durations file remembers the class, and the next auto run on the same commit starts it on Gradle runs (a class that leaked state by itself: a fresh JVM per execution instead). The report counts each test''s first executions in a JVM (the CI condition) apart from its repeats')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'What runs beside the selected tests. alone: the selected classes on their own (their verdict bounds the test by itself); task: each selected test''s whole test task as CI runs it (every class, no --tests filter, the build''s own test JVMs and forks), one Gradle run per execution, a seeded sample of its classes when the whole task cannot fit the budget (its verdict bounds the test in CI''s condition, beside its neighbours); both: the two, counted apart so that they can be compared [default: alone]')
            [CompletionResult]::new('--unmute-check', '--unmute-check', [CompletionResultType]::ParameterName, 'Whole-task runs (each a fresh test JVM, as CI runs the test) that back a test selected because it was unmuted (--unmuted) and repeated in one test JVM: a clean in-JVM verdict bounds repeats in a warm JVM, these bound the test as CI runs it. 5 runs catch a test failing every fresh first run every time, one failing half of them 97 times in 100; 0 turns the check off; --context task|both runs the task anyway [default: 5]')
            [CompletionResult]::new('--sample-seed', '--sample-seed', [CompletionResultType]::ParameterName, 'The seed of the random sample of a whole test task''s classes that runs when the task is too big for the budget (--context task|both): the plan and the report say the seed used, and the same seed, classes and durations give the same sample [default: a fresh one]')
            [CompletionResult]::new('--cap', '--cap', [CompletionResultType]::ParameterName, 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2')
            [CompletionResult]::new('--detect-rate', '--detect-rate', [CompletionResultType]::ParameterName, 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'Confidence for --detect-rate')
            [CompletionResult]::new('--budget', '--budget', [CompletionResultType]::ParameterName, 'The time each batch job may take (90s, 20m, 1h). A batch the durations say cannot fit is split into shards (--max-shards); locally and in a CI job its iterations run in chunks, each checked to fit what is left before it starts (a CI job''s budget cut to what its timeout leaves), each with a fresh seed, and a batch out of budget stops cleanly and reports what ran [default: the job''s timeout minus 2 minutes (--batch-timeout locally, --step-timeout on Buildkite, the workflow''s job timeout on GitHub)]')
            [CompletionResult]::new('--durations', '--durations', [CompletionResultType]::ParameterName, 'Durations per test class: JUnit XML files or folders of an earlier run (e.g. the base branch''s build/test-results), or a flakiness-durations.json [default: what earlier runs recorded under .gradle/gradle-flaky/]')
            [CompletionResult]::new('--max-shards', '--max-shards', [CompletionResultType]::ParameterName, 'The most shards (parallel jobs, or batches run in turn locally) one batch is split into to fit the budget')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Report format on stdout')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Also write the report to FILE (in --format)')
            [CompletionResult]::new('--junit', '--junit', [CompletionResultType]::ParameterName, 'Also write one merged Surefire-style JUnit XML file (flakyFailure/rerunFailure)')
            [CompletionResult]::new('--triage', '--triage', [CompletionResultType]::ParameterName, 'After the run, replay each failing test N times per failing seed (up to 3 seeds, the seed pinned), or alone N times when it has no seed, and say what kind of flaky it is (0: off). Here and on Buildkite (a triage step); not with --target github')
            [CompletionResult]::new('--triage-budget', '--triage-budget', [CompletionResultType]::ParameterName, 'The most replays triage runs in all, every test and seed together [default: 100]')
            [CompletionResult]::new('--triage-timeout', '--triage-timeout', [CompletionResultType]::ParameterName, 'The most time triage takes; a replay still running then is stopped (90s, 20m, 1h) [default: 30m]')
            [CompletionResult]::new('--stop-on-flaky', '--stop-on-flaky', [CompletionResultType]::ParameterName, 'A test proven flaky (a real failure and a pass) gets no more iterations [default: on for changed tests, off for unmuted and explicit ones, which need their full count to clear]')
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'With --until-fail: how long each batch repeats (90s, 20m, 1h)')
            [CompletionResult]::new('--batch-timeout', '--batch-timeout', [CompletionResultType]::ParameterName, 'Stop a Gradle invocation (a batch, or one REST iteration) that runs longer than this (default: suite timeout plus 10 minutes)')
            [CompletionResult]::new('--compare', '--compare', [CompletionResultType]::ParameterName, 'Also run the selected tests on REF (a branch, tag or commit; in a git worktree of it in the run folder, with this branch''s muted-tests file), REF first, and compare each test: fixed, not shown, same or worse (Fisher''s exact test). A test the ledger already holds enough runs of on REF, in the same condition, is not run there again')
            [CompletionResult]::new('--looks', '--looks', [CompletionResultType]::ParameterName, 'With --compare: looks at this working tree''s runs, after each 1/K of them; a test shown fixed at a look stops there (α spent over the looks: O''Brien–Fleming type); 1 looks only at the end [default: 2]')
            [CompletionResult]::new('--ledger', '--ledger', [CompletionResultType]::ParameterName, 'Also read this run ledger (a file, or a folder of *.jsonl such as downloaded CI artifacts; repeatable, or `:`-separated): REF''s earlier runs for --compare, and the base branch''s for the known-flaky note of --changed/--unmuted runs')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('--changed', '--changed', [CompletionResultType]::ParameterName, 'Add test files changed against the merge base')
            [CompletionResult]::new('--unmuted', '--unmuted', [CompletionResultType]::ParameterName, 'Add entries removed from muted-tests.yml against the merge base')
            [CompletionResult]::new('--refresh-layout', '--refresh-layout', [CompletionResultType]::ParameterName, 'Re-read the layout from Gradle instead of the cache')
            [CompletionResult]::new('--allow-host-mutating-tasks', '--allow-host-mutating-tasks', [CompletionResultType]::ParameterName, 'Also run host-mutating Test tasks (named destructive*: they install packages and change services on this machine). Only on a disposable packaging host')
            [CompletionResult]::new('--no-stop-on-flaky', '--no-stop-on-flaky', [CompletionResultType]::ParameterName, 'Every test gets its full count, proven flaky or not')
            [CompletionResult]::new('--until-fail', '--until-fail', [CompletionResultType]::ParameterName, 'Repeat each selected test until its first real failure, for at most --for per batch (in chunks, each with a fresh seed); no failure by then is a clean result of the executions that ran')
            [CompletionResult]::new('--size-after', '--size-after', [CompletionResultType]::ParameterName, 'With --compare: run this working tree''s side as many times as a fix needs to show at the rate measured on REF (at most 10 times the planned count), instead of the planned count')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'gradle-flaky;bisect' {
            [CompletionResult]::new('--good', '--good', [CompletionResultType]::ParameterName, 'A commit where the test is not flaky (a branch, tag or commit): the search''s start')
            [CompletionResult]::new('--bad', '--bad', [CompletionResultType]::ParameterName, 'A commit where the test is flaky, on whose first-parent line the good one lies')
            [CompletionResult]::new('--max-runs', '--max-runs', [CompletionResultType]::ParameterName, 'The most runs of the test at one commit; a commit still not told from either end by then ends the search without a culprit')
            [CompletionResult]::new('--error-rate', '--error-rate', [CompletionResultType]::ParameterName, 'The chance, at most, that the commit named is the wrong one (or an end called what it is not), shared over the ends'' check and every halving')
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH or $GITHUB_BASE_REF, else origin/main, else main')
            [CompletionResult]::new('--muted-file', '--muted-file', [CompletionResultType]::ParameterName, 'The muted-tests file, relative to the project dir')
            [CompletionResult]::new('--task-cap', '--task-cap', [CompletionResultType]::ParameterName, 'Test tasks run per class when its source set''s own task is disabled and several others run it (BWC versions, newest first)')
            [CompletionResult]::new('--subclass-cap', '--subclass-cap', [CompletionResultType]::ParameterName, 'Concrete subclasses run per abstract base class, or per changed concrete test class (spread over projects); those left out are reported as not checked')
            [CompletionResult]::new('--iters', '--iters', [CompletionResultType]::ParameterName, 'Iterations for every kind (sets unit, integ and REST counts)')
            [CompletionResult]::new('--unit-iters', '--unit-iters', [CompletionResultType]::ParameterName, 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]')
            [CompletionResult]::new('--integ-iters', '--integ-iters', [CompletionResultType]::ParameterName, 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]')
            [CompletionResult]::new('--rest-iters', '--rest-iters', [CompletionResultType]::ParameterName, 'Gradle invocations per REST batch [default: 10]')
            [CompletionResult]::new('--suite-timeout', '--suite-timeout', [CompletionResultType]::ParameterName, 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 60m]')
            [CompletionResult]::new('--repetition', '--repetition', [CompletionResultType]::ParameterName, 'How tests repeat: in test JVMs (TestNG invocationCount, gradle-flaky''s JUnit 4 runner, the randomizedtesting runner''s -Dtests.iters; the JUnit Platform engine only with in-jvm), each class''s iterations spread over several fresh JVMs of one Gradle invocation, or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow; and when a chunk''s iterations in one JVM cost more than fresh Gradle runs (on average, or its last ones each: state accumulating in the JVM), the rest of its batch runs as Gradle runs, said in the run and the report (in-jvm stays, and says what it cost); the build''s durations file remembers the class, and the next auto run on the same commit starts it on Gradle runs (a class that leaked state by itself: a fresh JVM per execution instead). The report counts each test''s first executions in a JVM (the CI condition) apart from its repeats')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'What runs beside the selected tests. alone: the selected classes on their own (their verdict bounds the test by itself); task: each selected test''s whole test task as CI runs it (every class, no --tests filter, the build''s own test JVMs and forks), one Gradle run per execution, a seeded sample of its classes when the whole task cannot fit the budget (its verdict bounds the test in CI''s condition, beside its neighbours); both: the two, counted apart so that they can be compared [default: alone]')
            [CompletionResult]::new('--unmute-check', '--unmute-check', [CompletionResultType]::ParameterName, 'Whole-task runs (each a fresh test JVM, as CI runs the test) that back a test selected because it was unmuted (--unmuted) and repeated in one test JVM: a clean in-JVM verdict bounds repeats in a warm JVM, these bound the test as CI runs it. 5 runs catch a test failing every fresh first run every time, one failing half of them 97 times in 100; 0 turns the check off; --context task|both runs the task anyway [default: 5]')
            [CompletionResult]::new('--sample-seed', '--sample-seed', [CompletionResultType]::ParameterName, 'The seed of the random sample of a whole test task''s classes that runs when the task is too big for the budget (--context task|both): the plan and the report say the seed used, and the same seed, classes and durations give the same sample [default: a fresh one]')
            [CompletionResult]::new('--cap', '--cap', [CompletionResultType]::ParameterName, 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2')
            [CompletionResult]::new('--detect-rate', '--detect-rate', [CompletionResultType]::ParameterName, 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'Confidence for --detect-rate')
            [CompletionResult]::new('--budget', '--budget', [CompletionResultType]::ParameterName, 'The time each batch job may take (90s, 20m, 1h). A batch the durations say cannot fit is split into shards (--max-shards); locally and in a CI job its iterations run in chunks, each checked to fit what is left before it starts (a CI job''s budget cut to what its timeout leaves), each with a fresh seed, and a batch out of budget stops cleanly and reports what ran [default: the job''s timeout minus 2 minutes (--batch-timeout locally, --step-timeout on Buildkite, the workflow''s job timeout on GitHub)]')
            [CompletionResult]::new('--durations', '--durations', [CompletionResultType]::ParameterName, 'Durations per test class: JUnit XML files or folders of an earlier run (e.g. the base branch''s build/test-results), or a flakiness-durations.json [default: what earlier runs recorded under .gradle/gradle-flaky/]')
            [CompletionResult]::new('--max-shards', '--max-shards', [CompletionResultType]::ParameterName, 'The most shards (parallel jobs, or batches run in turn locally) one batch is split into to fit the budget')
            [CompletionResult]::new('--ledger', '--ledger', [CompletionResultType]::ParameterName, 'Also read this run ledger (a file, or a folder of *.jsonl; repeatable, or `:`-separated): runs it holds of a commit count toward that point')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('--changed', '--changed', [CompletionResultType]::ParameterName, 'Add test files changed against the merge base')
            [CompletionResult]::new('--unmuted', '--unmuted', [CompletionResultType]::ParameterName, 'Add entries removed from muted-tests.yml against the merge base')
            [CompletionResult]::new('--refresh-layout', '--refresh-layout', [CompletionResultType]::ParameterName, 'Re-read the layout from Gradle instead of the cache')
            [CompletionResult]::new('--allow-host-mutating-tasks', '--allow-host-mutating-tasks', [CompletionResultType]::ParameterName, 'Also run host-mutating Test tasks (named destructive*: they install packages and change services on this machine). Only on a disposable packaging host')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'gradle-flaky;plan' {
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH or $GITHUB_BASE_REF, else origin/main, else main')
            [CompletionResult]::new('--muted-file', '--muted-file', [CompletionResultType]::ParameterName, 'The muted-tests file, relative to the project dir')
            [CompletionResult]::new('--task-cap', '--task-cap', [CompletionResultType]::ParameterName, 'Test tasks run per class when its source set''s own task is disabled and several others run it (BWC versions, newest first)')
            [CompletionResult]::new('--subclass-cap', '--subclass-cap', [CompletionResultType]::ParameterName, 'Concrete subclasses run per abstract base class, or per changed concrete test class (spread over projects); those left out are reported as not checked')
            [CompletionResult]::new('--iters', '--iters', [CompletionResultType]::ParameterName, 'Iterations for every kind (sets unit, integ and REST counts)')
            [CompletionResult]::new('--unit-iters', '--unit-iters', [CompletionResultType]::ParameterName, 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]')
            [CompletionResult]::new('--integ-iters', '--integ-iters', [CompletionResultType]::ParameterName, 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]')
            [CompletionResult]::new('--rest-iters', '--rest-iters', [CompletionResultType]::ParameterName, 'Gradle invocations per REST batch [default: 10]')
            [CompletionResult]::new('--suite-timeout', '--suite-timeout', [CompletionResultType]::ParameterName, 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 60m]')
            [CompletionResult]::new('--repetition', '--repetition', [CompletionResultType]::ParameterName, 'How tests repeat: in test JVMs (TestNG invocationCount, gradle-flaky''s JUnit 4 runner, the randomizedtesting runner''s -Dtests.iters; the JUnit Platform engine only with in-jvm), each class''s iterations spread over several fresh JVMs of one Gradle invocation, or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow; and when a chunk''s iterations in one JVM cost more than fresh Gradle runs (on average, or its last ones each: state accumulating in the JVM), the rest of its batch runs as Gradle runs, said in the run and the report (in-jvm stays, and says what it cost); the build''s durations file remembers the class, and the next auto run on the same commit starts it on Gradle runs (a class that leaked state by itself: a fresh JVM per execution instead). The report counts each test''s first executions in a JVM (the CI condition) apart from its repeats')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'What runs beside the selected tests. alone: the selected classes on their own (their verdict bounds the test by itself); task: each selected test''s whole test task as CI runs it (every class, no --tests filter, the build''s own test JVMs and forks), one Gradle run per execution, a seeded sample of its classes when the whole task cannot fit the budget (its verdict bounds the test in CI''s condition, beside its neighbours); both: the two, counted apart so that they can be compared [default: alone]')
            [CompletionResult]::new('--unmute-check', '--unmute-check', [CompletionResultType]::ParameterName, 'Whole-task runs (each a fresh test JVM, as CI runs the test) that back a test selected because it was unmuted (--unmuted) and repeated in one test JVM: a clean in-JVM verdict bounds repeats in a warm JVM, these bound the test as CI runs it. 5 runs catch a test failing every fresh first run every time, one failing half of them 97 times in 100; 0 turns the check off; --context task|both runs the task anyway [default: 5]')
            [CompletionResult]::new('--sample-seed', '--sample-seed', [CompletionResultType]::ParameterName, 'The seed of the random sample of a whole test task''s classes that runs when the task is too big for the budget (--context task|both): the plan and the report say the seed used, and the same seed, classes and durations give the same sample [default: a fresh one]')
            [CompletionResult]::new('--cap', '--cap', [CompletionResultType]::ParameterName, 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2')
            [CompletionResult]::new('--detect-rate', '--detect-rate', [CompletionResultType]::ParameterName, 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'Confidence for --detect-rate')
            [CompletionResult]::new('--budget', '--budget', [CompletionResultType]::ParameterName, 'The time each batch job may take (90s, 20m, 1h). A batch the durations say cannot fit is split into shards (--max-shards); locally and in a CI job its iterations run in chunks, each checked to fit what is left before it starts (a CI job''s budget cut to what its timeout leaves), each with a fresh seed, and a batch out of budget stops cleanly and reports what ran [default: the job''s timeout minus 2 minutes (--batch-timeout locally, --step-timeout on Buildkite, the workflow''s job timeout on GitHub)]')
            [CompletionResult]::new('--durations', '--durations', [CompletionResultType]::ParameterName, 'Durations per test class: JUnit XML files or folders of an earlier run (e.g. the base branch''s build/test-results), or a flakiness-durations.json [default: what earlier runs recorded under .gradle/gradle-flaky/]')
            [CompletionResult]::new('--max-shards', '--max-shards', [CompletionResultType]::ParameterName, 'The most shards (parallel jobs, or batches run in turn locally) one batch is split into to fit the budget')
            [CompletionResult]::new('--stop-on-flaky', '--stop-on-flaky', [CompletionResultType]::ParameterName, 'A test proven flaky (a real failure and a pass) gets no more iterations [default: on for changed tests, off for unmuted and explicit ones, which need their full count to clear]')
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'With --until-fail: how long each batch repeats (90s, 20m, 1h)')
            [CompletionResult]::new('--batch-timeout', '--batch-timeout', [CompletionResultType]::ParameterName, 'Stop a Gradle invocation (a batch, or one REST iteration) that runs longer than this (default: suite timeout plus 10 minutes)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: text for people, json (the plan JSON of docs/src/reference/json.md), or shell (one POSIX-quoted command a line; a `#` comment before a command only gradle-flaky''s init script repeats, which typed by hand runs each test once)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('--changed', '--changed', [CompletionResultType]::ParameterName, 'Add test files changed against the merge base')
            [CompletionResult]::new('--unmuted', '--unmuted', [CompletionResultType]::ParameterName, 'Add entries removed from muted-tests.yml against the merge base')
            [CompletionResult]::new('--refresh-layout', '--refresh-layout', [CompletionResultType]::ParameterName, 'Re-read the layout from Gradle instead of the cache')
            [CompletionResult]::new('--allow-host-mutating-tasks', '--allow-host-mutating-tasks', [CompletionResultType]::ParameterName, 'Also run host-mutating Test tasks (named destructive*: they install packages and change services on this machine). Only on a disposable packaging host')
            [CompletionResult]::new('--no-stop-on-flaky', '--no-stop-on-flaky', [CompletionResultType]::ParameterName, 'Every test gets its full count, proven flaky or not')
            [CompletionResult]::new('--until-fail', '--until-fail', [CompletionResultType]::ParameterName, 'Repeat each selected test until its first real failure, for at most --for per batch (in chunks, each with a fresh seed); no failure by then is a clean result of the executions that ran')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'gradle-flaky;pr' {
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH or $GITHUB_BASE_REF, else origin/main, else main')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'Where the tests run (default: github when $GITHUB_ACTIONS is set, buildkite when $BUILDKITE is, else local)')
            [CompletionResult]::new('--muted-file', '--muted-file', [CompletionResultType]::ParameterName, 'The muted-tests file, relative to the project dir')
            [CompletionResult]::new('--task-cap', '--task-cap', [CompletionResultType]::ParameterName, 'Test tasks run per class when its source set''s own task is disabled and several others run it (BWC versions, newest first)')
            [CompletionResult]::new('--subclass-cap', '--subclass-cap', [CompletionResultType]::ParameterName, 'Concrete subclasses run per abstract base class, or per changed concrete test class (spread over projects); those left out are reported as not checked')
            [CompletionResult]::new('--iters', '--iters', [CompletionResultType]::ParameterName, 'Iterations for every kind (sets unit, integ and REST counts)')
            [CompletionResult]::new('--unit-iters', '--unit-iters', [CompletionResultType]::ParameterName, 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]')
            [CompletionResult]::new('--integ-iters', '--integ-iters', [CompletionResultType]::ParameterName, 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]')
            [CompletionResult]::new('--rest-iters', '--rest-iters', [CompletionResultType]::ParameterName, 'Gradle invocations per REST batch [default: 10]')
            [CompletionResult]::new('--suite-timeout', '--suite-timeout', [CompletionResultType]::ParameterName, 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 60m]')
            [CompletionResult]::new('--repetition', '--repetition', [CompletionResultType]::ParameterName, 'How tests repeat: in test JVMs (TestNG invocationCount, gradle-flaky''s JUnit 4 runner, the randomizedtesting runner''s -Dtests.iters; the JUnit Platform engine only with in-jvm), each class''s iterations spread over several fresh JVMs of one Gradle invocation, or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow; and when a chunk''s iterations in one JVM cost more than fresh Gradle runs (on average, or its last ones each: state accumulating in the JVM), the rest of its batch runs as Gradle runs, said in the run and the report (in-jvm stays, and says what it cost); the build''s durations file remembers the class, and the next auto run on the same commit starts it on Gradle runs (a class that leaked state by itself: a fresh JVM per execution instead). The report counts each test''s first executions in a JVM (the CI condition) apart from its repeats')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'What runs beside the selected tests. alone: the selected classes on their own (their verdict bounds the test by itself); task: each selected test''s whole test task as CI runs it (every class, no --tests filter, the build''s own test JVMs and forks), one Gradle run per execution, a seeded sample of its classes when the whole task cannot fit the budget (its verdict bounds the test in CI''s condition, beside its neighbours); both: the two, counted apart so that they can be compared [default: alone]')
            [CompletionResult]::new('--unmute-check', '--unmute-check', [CompletionResultType]::ParameterName, 'Whole-task runs (each a fresh test JVM, as CI runs the test) that back a test selected because it was unmuted (--unmuted) and repeated in one test JVM: a clean in-JVM verdict bounds repeats in a warm JVM, these bound the test as CI runs it. 5 runs catch a test failing every fresh first run every time, one failing half of them 97 times in 100; 0 turns the check off; --context task|both runs the task anyway [default: 5]')
            [CompletionResult]::new('--sample-seed', '--sample-seed', [CompletionResultType]::ParameterName, 'The seed of the random sample of a whole test task''s classes that runs when the task is too big for the budget (--context task|both): the plan and the report say the seed used, and the same seed, classes and durations give the same sample [default: a fresh one]')
            [CompletionResult]::new('--cap', '--cap', [CompletionResultType]::ParameterName, 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2')
            [CompletionResult]::new('--detect-rate', '--detect-rate', [CompletionResultType]::ParameterName, 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'Confidence for --detect-rate')
            [CompletionResult]::new('--budget', '--budget', [CompletionResultType]::ParameterName, 'The time each batch job may take (90s, 20m, 1h). A batch the durations say cannot fit is split into shards (--max-shards); locally and in a CI job its iterations run in chunks, each checked to fit what is left before it starts (a CI job''s budget cut to what its timeout leaves), each with a fresh seed, and a batch out of budget stops cleanly and reports what ran [default: the job''s timeout minus 2 minutes (--batch-timeout locally, --step-timeout on Buildkite, the workflow''s job timeout on GitHub)]')
            [CompletionResult]::new('--durations', '--durations', [CompletionResultType]::ParameterName, 'Durations per test class: JUnit XML files or folders of an earlier run (e.g. the base branch''s build/test-results), or a flakiness-durations.json [default: what earlier runs recorded under .gradle/gradle-flaky/]')
            [CompletionResult]::new('--max-shards', '--max-shards', [CompletionResultType]::ParameterName, 'The most shards (parallel jobs, or batches run in turn locally) one batch is split into to fit the budget')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Report format on stdout')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Also write the report to FILE (in --format)')
            [CompletionResult]::new('--junit', '--junit', [CompletionResultType]::ParameterName, 'Also write one merged Surefire-style JUnit XML file (flakyFailure/rerunFailure)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent selector for batch steps, as KEY=VALUE (repeatable or comma-separated)')
            [CompletionResult]::new('--step-timeout', '--step-timeout', [CompletionResultType]::ParameterName, 'Step timeout of each batch step, in minutes')
            [CompletionResult]::new('--agent-bin', '--agent-bin', [CompletionResultType]::ParameterName, 'How agents run gradle-flaky itself (a path or command on the agent)')
            [CompletionResult]::new('--group', '--group', [CompletionResultType]::ParameterName, 'Group name of the uploaded steps')
            [CompletionResult]::new('--blocking-labels', '--blocking-labels', [CompletionResultType]::ParameterName, 'Pull-request labels that opt in to blocking (comma-separated, exact and case-sensitive): on a PR carrying one, proven flakiness fails the report step; default: never block')
            [CompletionResult]::new('--proven-exit-code', '--proven-exit-code', [CompletionResultType]::ParameterName, 'The exit code of a blocked report step: 3 to 125, not 124 (required with --blocking-labels)')
            [CompletionResult]::new('--triage', '--triage', [CompletionResultType]::ParameterName, 'After the run, replay each failing test N times per failing seed (up to 3 seeds, the seed pinned), or alone N times when it has no seed, and say what kind of flaky it is (0: off). Here and on Buildkite (a triage step); not with --target github')
            [CompletionResult]::new('--triage-budget', '--triage-budget', [CompletionResultType]::ParameterName, 'The most replays triage runs in all, every test and seed together [default: 100]')
            [CompletionResult]::new('--triage-timeout', '--triage-timeout', [CompletionResultType]::ParameterName, 'The most time triage takes; a replay still running then is stopped (90s, 20m, 1h) [default: 30m]')
            [CompletionResult]::new('--stop-on-flaky', '--stop-on-flaky', [CompletionResultType]::ParameterName, 'A test proven flaky (a real failure and a pass) gets no more iterations [default: on for changed tests, off for unmuted and explicit ones, which need their full count to clear]')
            [CompletionResult]::new('--batch-timeout', '--batch-timeout', [CompletionResultType]::ParameterName, 'Stop a local Gradle invocation (a batch, or one REST iteration) that runs longer than this (default: suite timeout plus 10 minutes)')
            [CompletionResult]::new('--compare', '--compare', [CompletionResultType]::ParameterName, 'Also run the selected tests on REF (a branch, tag or commit) and compare each test: fixed, not shown, same or worse (Fisher''s exact test). On Buildkite or GitHub: each batch also runs in a job that checks out REF (a git worktree of its commit, with this branch''s muted-tests file), and the report step compares; `pr --target local`: as `local --compare`')
            [CompletionResult]::new('--learned', '--learned', [CompletionResultType]::ParameterName, 'What earlier CI runs learned: the flakiness-learned/ folder a report step keeps (their durations and ledger; GitHub''s generated workflow restores it from the Actions cache). Its durations plan the batches'' budgets and shards when --durations is not given (also `pr --target local`''s); a missing folder is no error (the first run has learned nothing yet)')
            [CompletionResult]::new('--learned-build', '--learned-build', [CompletionResultType]::ParameterName, 'Buildkite: the build (its UUID, e.g. the last build of main) whose report step''s flakiness-learned/ to start from: downloaded here with `buildkite-agent artifact download --build` and read as --learned (default folder flakiness-learned), and handed to this pipeline''s report step, which fetches it too (its "known flaky on" note, and what it keeps for the next build)')
            [CompletionResult]::new('--ledger', '--ledger', [CompletionResultType]::ParameterName, 'Also read this run ledger (a file, or a folder of *.jsonl; repeatable, or `:`-separated) with the build''s own: a failing test already failing on the base branch is noted as known flaky there (--target local)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('--allow-host-mutating-tasks', '--allow-host-mutating-tasks', [CompletionResultType]::ParameterName, 'Also run host-mutating Test tasks (named destructive*: they install packages and change services on this machine). Only on a disposable packaging host')
            [CompletionResult]::new('--no-stop-on-flaky', '--no-stop-on-flaky', [CompletionResultType]::ParameterName, 'Every test gets its full count, proven flaky or not')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the pipeline (Buildkite) or the plan file (GitHub) instead of publishing it')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'gradle-flaky;manual' {
            [CompletionResult]::new('--task-cap', '--task-cap', [CompletionResultType]::ParameterName, 'Test tasks run per class when its source set''s own task is disabled and several others run it (BWC versions, newest first)')
            [CompletionResult]::new('--subclass-cap', '--subclass-cap', [CompletionResultType]::ParameterName, 'Concrete subclasses run per abstract base class, or per changed concrete test class (spread over projects); those left out are reported as not checked')
            [CompletionResult]::new('--iters', '--iters', [CompletionResultType]::ParameterName, 'Iterations for every kind (sets unit, integ and REST counts)')
            [CompletionResult]::new('--unit-iters', '--unit-iters', [CompletionResultType]::ParameterName, 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]')
            [CompletionResult]::new('--integ-iters', '--integ-iters', [CompletionResultType]::ParameterName, 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]')
            [CompletionResult]::new('--rest-iters', '--rest-iters', [CompletionResultType]::ParameterName, 'Gradle invocations per REST batch [default: 10]')
            [CompletionResult]::new('--suite-timeout', '--suite-timeout', [CompletionResultType]::ParameterName, 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 60m]')
            [CompletionResult]::new('--repetition', '--repetition', [CompletionResultType]::ParameterName, 'How tests repeat: in test JVMs (TestNG invocationCount, gradle-flaky''s JUnit 4 runner, the randomizedtesting runner''s -Dtests.iters; the JUnit Platform engine only with in-jvm), each class''s iterations spread over several fresh JVMs of one Gradle invocation, or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow; and when a chunk''s iterations in one JVM cost more than fresh Gradle runs (on average, or its last ones each: state accumulating in the JVM), the rest of its batch runs as Gradle runs, said in the run and the report (in-jvm stays, and says what it cost); the build''s durations file remembers the class, and the next auto run on the same commit starts it on Gradle runs (a class that leaked state by itself: a fresh JVM per execution instead). The report counts each test''s first executions in a JVM (the CI condition) apart from its repeats')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'What runs beside the selected tests. alone: the selected classes on their own (their verdict bounds the test by itself); task: each selected test''s whole test task as CI runs it (every class, no --tests filter, the build''s own test JVMs and forks), one Gradle run per execution, a seeded sample of its classes when the whole task cannot fit the budget (its verdict bounds the test in CI''s condition, beside its neighbours); both: the two, counted apart so that they can be compared [default: alone]')
            [CompletionResult]::new('--unmute-check', '--unmute-check', [CompletionResultType]::ParameterName, 'Whole-task runs (each a fresh test JVM, as CI runs the test) that back a test selected because it was unmuted (--unmuted) and repeated in one test JVM: a clean in-JVM verdict bounds repeats in a warm JVM, these bound the test as CI runs it. 5 runs catch a test failing every fresh first run every time, one failing half of them 97 times in 100; 0 turns the check off; --context task|both runs the task anyway [default: 5]')
            [CompletionResult]::new('--sample-seed', '--sample-seed', [CompletionResultType]::ParameterName, 'The seed of the random sample of a whole test task''s classes that runs when the task is too big for the budget (--context task|both): the plan and the report say the seed used, and the same seed, classes and durations give the same sample [default: a fresh one]')
            [CompletionResult]::new('--cap', '--cap', [CompletionResultType]::ParameterName, 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2')
            [CompletionResult]::new('--detect-rate', '--detect-rate', [CompletionResultType]::ParameterName, 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'Confidence for --detect-rate')
            [CompletionResult]::new('--budget', '--budget', [CompletionResultType]::ParameterName, 'The time each batch job may take (90s, 20m, 1h). A batch the durations say cannot fit is split into shards (--max-shards); locally and in a CI job its iterations run in chunks, each checked to fit what is left before it starts (a CI job''s budget cut to what its timeout leaves), each with a fresh seed, and a batch out of budget stops cleanly and reports what ran [default: the job''s timeout minus 2 minutes (--batch-timeout locally, --step-timeout on Buildkite, the workflow''s job timeout on GitHub)]')
            [CompletionResult]::new('--durations', '--durations', [CompletionResultType]::ParameterName, 'Durations per test class: JUnit XML files or folders of an earlier run (e.g. the base branch''s build/test-results), or a flakiness-durations.json [default: what earlier runs recorded under .gradle/gradle-flaky/]')
            [CompletionResult]::new('--max-shards', '--max-shards', [CompletionResultType]::ParameterName, 'The most shards (parallel jobs, or batches run in turn locally) one batch is split into to fit the budget')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent selector for batch steps, as KEY=VALUE (repeatable or comma-separated)')
            [CompletionResult]::new('--step-timeout', '--step-timeout', [CompletionResultType]::ParameterName, 'Step timeout of each batch step, in minutes')
            [CompletionResult]::new('--agent-bin', '--agent-bin', [CompletionResultType]::ParameterName, 'How agents run gradle-flaky itself (a path or command on the agent)')
            [CompletionResult]::new('--group', '--group', [CompletionResultType]::ParameterName, 'Group name of the uploaded steps')
            [CompletionResult]::new('--blocking-labels', '--blocking-labels', [CompletionResultType]::ParameterName, 'Pull-request labels that opt in to blocking (comma-separated, exact and case-sensitive): on a PR carrying one, proven flakiness fails the report step; default: never block')
            [CompletionResult]::new('--proven-exit-code', '--proven-exit-code', [CompletionResultType]::ParameterName, 'The exit code of a blocked report step: 3 to 125, not 124 (required with --blocking-labels)')
            [CompletionResult]::new('--triage', '--triage', [CompletionResultType]::ParameterName, 'After the run, replay each failing test N times per failing seed (up to 3 seeds, the seed pinned), or alone N times when it has no seed, and say what kind of flaky it is (0: off). Here and on Buildkite (a triage step); not with --target github')
            [CompletionResult]::new('--triage-budget', '--triage-budget', [CompletionResultType]::ParameterName, 'The most replays triage runs in all, every test and seed together [default: 100]')
            [CompletionResult]::new('--triage-timeout', '--triage-timeout', [CompletionResultType]::ParameterName, 'The most time triage takes; a replay still running then is stopped (90s, 20m, 1h) [default: 30m]')
            [CompletionResult]::new('--compare', '--compare', [CompletionResultType]::ParameterName, 'Also run the selected tests on REF (a branch, tag or commit) and compare each test: fixed, not shown, same or worse (Fisher''s exact test). On Buildkite or GitHub: each batch also runs in a job that checks out REF (a git worktree of its commit, with this branch''s muted-tests file), and the report step compares; `pr --target local`: as `local --compare`')
            [CompletionResult]::new('--stop-on-flaky', '--stop-on-flaky', [CompletionResultType]::ParameterName, 'A test proven flaky (a real failure and a pass) gets no more iterations [default: on for changed tests, off for unmuted and explicit ones, which need their full count to clear]')
            [CompletionResult]::new('--learned', '--learned', [CompletionResultType]::ParameterName, 'What earlier CI runs learned: the flakiness-learned/ folder a report step keeps (their durations and ledger; GitHub''s generated workflow restores it from the Actions cache). Its durations plan the batches'' budgets and shards when --durations is not given (also `pr --target local`''s); a missing folder is no error (the first run has learned nothing yet)')
            [CompletionResult]::new('--learned-build', '--learned-build', [CompletionResultType]::ParameterName, 'Buildkite: the build (its UUID, e.g. the last build of main) whose report step''s flakiness-learned/ to start from: downloaded here with `buildkite-agent artifact download --build` and read as --learned (default folder flakiness-learned), and handed to this pipeline''s report step, which fetches it too (its "known flaky on" note, and what it keeps for the next build)')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'The CI to hand the tests to: buildkite or github (default: github when $GITHUB_ACTIONS is set, else buildkite)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('--allow-host-mutating-tasks', '--allow-host-mutating-tasks', [CompletionResultType]::ParameterName, 'Also run host-mutating Test tasks (named destructive*: they install packages and change services on this machine). Only on a disposable packaging host')
            [CompletionResult]::new('--no-stop-on-flaky', '--no-stop-on-flaky', [CompletionResultType]::ParameterName, 'Every test gets its full count, proven flaky or not')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the pipeline (Buildkite) or the plan file (GitHub) instead of publishing it')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'gradle-flaky;analyze' {
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Skip reports older than TIME (RFC 3339 or seconds since the epoch) or than FILE''s mtime')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Report format on stdout')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Also write the report to FILE (in --format)')
            [CompletionResult]::new('--junit', '--junit', [CompletionResultType]::ParameterName, 'Also write one merged Surefire-style JUnit XML file (flakyFailure/rerunFailure)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gradle-flaky;buildkite' {
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('upload', 'upload', [CompletionResultType]::ParameterValue, 'Upload the sub-pipeline for a selection (pipe to `buildkite-agent pipeline upload`)')
            [CompletionResult]::new('wrap', 'wrap', [CompletionResultType]::ParameterValue, 'Run a batch (through the repetition engine) or a command, record how it ended in a status file, always exit 0')
            [CompletionResult]::new('analyze', 'analyze', [CompletionResultType]::ParameterValue, 'The final step: derive each job''s outcome, upload flakiness-outcomes.json, annotate')
            [CompletionResult]::new('triage', 'triage', [CompletionResultType]::ParameterValue, 'The triage step (with --triage / FLAKINESS_TRIAGE): replay the failing tests, annotate')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'gradle-flaky;buildkite;upload' {
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH or $GITHUB_BASE_REF, else origin/main, else main')
            [CompletionResult]::new('--muted-file', '--muted-file', [CompletionResultType]::ParameterName, 'The muted-tests file, relative to the project dir')
            [CompletionResult]::new('--task-cap', '--task-cap', [CompletionResultType]::ParameterName, 'Test tasks run per class when its source set''s own task is disabled and several others run it (BWC versions, newest first)')
            [CompletionResult]::new('--subclass-cap', '--subclass-cap', [CompletionResultType]::ParameterName, 'Concrete subclasses run per abstract base class, or per changed concrete test class (spread over projects); those left out are reported as not checked')
            [CompletionResult]::new('--iters', '--iters', [CompletionResultType]::ParameterName, 'Iterations for every kind (sets unit, integ and REST counts)')
            [CompletionResult]::new('--unit-iters', '--unit-iters', [CompletionResultType]::ParameterName, 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]')
            [CompletionResult]::new('--integ-iters', '--integ-iters', [CompletionResultType]::ParameterName, 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]')
            [CompletionResult]::new('--rest-iters', '--rest-iters', [CompletionResultType]::ParameterName, 'Gradle invocations per REST batch [default: 10]')
            [CompletionResult]::new('--suite-timeout', '--suite-timeout', [CompletionResultType]::ParameterName, 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 60m]')
            [CompletionResult]::new('--repetition', '--repetition', [CompletionResultType]::ParameterName, 'How tests repeat: in test JVMs (TestNG invocationCount, gradle-flaky''s JUnit 4 runner, the randomizedtesting runner''s -Dtests.iters; the JUnit Platform engine only with in-jvm), each class''s iterations spread over several fresh JVMs of one Gradle invocation, or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow; and when a chunk''s iterations in one JVM cost more than fresh Gradle runs (on average, or its last ones each: state accumulating in the JVM), the rest of its batch runs as Gradle runs, said in the run and the report (in-jvm stays, and says what it cost); the build''s durations file remembers the class, and the next auto run on the same commit starts it on Gradle runs (a class that leaked state by itself: a fresh JVM per execution instead). The report counts each test''s first executions in a JVM (the CI condition) apart from its repeats')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'What runs beside the selected tests. alone: the selected classes on their own (their verdict bounds the test by itself); task: each selected test''s whole test task as CI runs it (every class, no --tests filter, the build''s own test JVMs and forks), one Gradle run per execution, a seeded sample of its classes when the whole task cannot fit the budget (its verdict bounds the test in CI''s condition, beside its neighbours); both: the two, counted apart so that they can be compared [default: alone]')
            [CompletionResult]::new('--unmute-check', '--unmute-check', [CompletionResultType]::ParameterName, 'Whole-task runs (each a fresh test JVM, as CI runs the test) that back a test selected because it was unmuted (--unmuted) and repeated in one test JVM: a clean in-JVM verdict bounds repeats in a warm JVM, these bound the test as CI runs it. 5 runs catch a test failing every fresh first run every time, one failing half of them 97 times in 100; 0 turns the check off; --context task|both runs the task anyway [default: 5]')
            [CompletionResult]::new('--sample-seed', '--sample-seed', [CompletionResultType]::ParameterName, 'The seed of the random sample of a whole test task''s classes that runs when the task is too big for the budget (--context task|both): the plan and the report say the seed used, and the same seed, classes and durations give the same sample [default: a fresh one]')
            [CompletionResult]::new('--cap', '--cap', [CompletionResultType]::ParameterName, 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2')
            [CompletionResult]::new('--detect-rate', '--detect-rate', [CompletionResultType]::ParameterName, 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'Confidence for --detect-rate')
            [CompletionResult]::new('--budget', '--budget', [CompletionResultType]::ParameterName, 'The time each batch job may take (90s, 20m, 1h). A batch the durations say cannot fit is split into shards (--max-shards); locally and in a CI job its iterations run in chunks, each checked to fit what is left before it starts (a CI job''s budget cut to what its timeout leaves), each with a fresh seed, and a batch out of budget stops cleanly and reports what ran [default: the job''s timeout minus 2 minutes (--batch-timeout locally, --step-timeout on Buildkite, the workflow''s job timeout on GitHub)]')
            [CompletionResult]::new('--durations', '--durations', [CompletionResultType]::ParameterName, 'Durations per test class: JUnit XML files or folders of an earlier run (e.g. the base branch''s build/test-results), or a flakiness-durations.json [default: what earlier runs recorded under .gradle/gradle-flaky/]')
            [CompletionResult]::new('--max-shards', '--max-shards', [CompletionResultType]::ParameterName, 'The most shards (parallel jobs, or batches run in turn locally) one batch is split into to fit the budget')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent selector for batch steps, as KEY=VALUE (repeatable or comma-separated)')
            [CompletionResult]::new('--step-timeout', '--step-timeout', [CompletionResultType]::ParameterName, 'Step timeout of each batch step, in minutes')
            [CompletionResult]::new('--agent-bin', '--agent-bin', [CompletionResultType]::ParameterName, 'How agents run gradle-flaky itself (a path or command on the agent)')
            [CompletionResult]::new('--group', '--group', [CompletionResultType]::ParameterName, 'Group name of the uploaded steps')
            [CompletionResult]::new('--blocking-labels', '--blocking-labels', [CompletionResultType]::ParameterName, 'Pull-request labels that opt in to blocking (comma-separated, exact and case-sensitive): on a PR carrying one, proven flakiness fails the report step; default: never block')
            [CompletionResult]::new('--proven-exit-code', '--proven-exit-code', [CompletionResultType]::ParameterName, 'The exit code of a blocked report step: 3 to 125, not 124 (required with --blocking-labels)')
            [CompletionResult]::new('--triage', '--triage', [CompletionResultType]::ParameterName, 'After the run, replay each failing test N times per failing seed (up to 3 seeds, the seed pinned), or alone N times when it has no seed, and say what kind of flaky it is (0: off). Here and on Buildkite (a triage step); not with --target github')
            [CompletionResult]::new('--triage-budget', '--triage-budget', [CompletionResultType]::ParameterName, 'The most replays triage runs in all, every test and seed together [default: 100]')
            [CompletionResult]::new('--triage-timeout', '--triage-timeout', [CompletionResultType]::ParameterName, 'The most time triage takes; a replay still running then is stopped (90s, 20m, 1h) [default: 30m]')
            [CompletionResult]::new('--compare', '--compare', [CompletionResultType]::ParameterName, 'Also run the selected tests on REF (a branch, tag or commit) and compare each test: fixed, not shown, same or worse (Fisher''s exact test). On Buildkite or GitHub: each batch also runs in a job that checks out REF (a git worktree of its commit, with this branch''s muted-tests file), and the report step compares; `pr --target local`: as `local --compare`')
            [CompletionResult]::new('--stop-on-flaky', '--stop-on-flaky', [CompletionResultType]::ParameterName, 'A test proven flaky (a real failure and a pass) gets no more iterations [default: on for changed tests, off for unmuted and explicit ones, which need their full count to clear]')
            [CompletionResult]::new('--learned', '--learned', [CompletionResultType]::ParameterName, 'What earlier CI runs learned: the flakiness-learned/ folder a report step keeps (their durations and ledger; GitHub''s generated workflow restores it from the Actions cache). Its durations plan the batches'' budgets and shards when --durations is not given (also `pr --target local`''s); a missing folder is no error (the first run has learned nothing yet)')
            [CompletionResult]::new('--learned-build', '--learned-build', [CompletionResultType]::ParameterName, 'Buildkite: the build (its UUID, e.g. the last build of main) whose report step''s flakiness-learned/ to start from: downloaded here with `buildkite-agent artifact download --build` and read as --learned (default folder flakiness-learned), and handed to this pipeline''s report step, which fetches it too (its "known flaky on" note, and what it keeps for the next build)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('--changed', '--changed', [CompletionResultType]::ParameterName, 'Add test files changed against the merge base')
            [CompletionResult]::new('--unmuted', '--unmuted', [CompletionResultType]::ParameterName, 'Add entries removed from muted-tests.yml against the merge base')
            [CompletionResult]::new('--refresh-layout', '--refresh-layout', [CompletionResultType]::ParameterName, 'Re-read the layout from Gradle instead of the cache')
            [CompletionResult]::new('--allow-host-mutating-tasks', '--allow-host-mutating-tasks', [CompletionResultType]::ParameterName, 'Also run host-mutating Test tasks (named destructive*: they install packages and change services on this machine). Only on a disposable packaging host')
            [CompletionResult]::new('--no-stop-on-flaky', '--no-stop-on-flaky', [CompletionResultType]::ParameterName, 'Every test gets its full count, proven flaky or not')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the pipeline JSON instead of uploading it')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'gradle-flaky;buildkite;wrap' {
            [CompletionResult]::new('--status-dir', '--status-dir', [CompletionResultType]::ParameterName, 'Where status-<jobId>.json is written')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'The batch''s kind, recorded in the status file')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop the command after DURATION (every process it started: SIGTERM, then SIGKILL); rc 124')
            [CompletionResult]::new('--pass-exit-code', '--pass-exit-code', [CompletionResultType]::ParameterName, 'Exit with the command''s rc when it is CODE (the report step''s opt-in blocking), else 0 as always')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('--from-env', '--from-env', [CompletionResultType]::ParameterName, 'Run the batch in $FLAKINESS_BATCH_<n> (its typed batch as JSON; n = $BUILDKITE_PARALLEL_JOB, default 0), as an uploaded pipeline does')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gradle-flaky;buildkite;analyze' {
            [CompletionResult]::new('--work-dir', '--work-dir', [CompletionResultType]::ParameterName, 'Where downloaded status files and per-job XML are kept')
            [CompletionResult]::new('--ledger', '--ledger', [CompletionResultType]::ParameterName, 'Earlier run ledgers (files, or folders of *.jsonl such as downloaded flakiness-ledger artifacts; repeatable, or `:`-separated): a failing test already failing on the pull request''s base branch is noted as known flaky there')
            [CompletionResult]::new('--learned-build', '--learned-build', [CompletionResultType]::ParameterName, 'The build (its UUID) whose flakiness-learned/ to start from, fetched with `buildkite-agent artifact download --build` (the upload sets it from --learned-build): its ledger is read as --ledger, and this run''s durations and counts are kept over it in flakiness-learned/, an artifact of this step, for the next build')
            [CompletionResult]::new('--blocking-labels', '--blocking-labels', [CompletionResultType]::ParameterName, 'Pull-request labels that opt in to blocking (comma-separated, exact and case-sensitive): on a PR carrying one, proven flakiness fails the report step; default: never block')
            [CompletionResult]::new('--proven-exit-code', '--proven-exit-code', [CompletionResultType]::ParameterName, 'The exit code of a blocked report step: 3 to 125, not 124 (required with --blocking-labels)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gradle-flaky;buildkite;triage' {
            [CompletionResult]::new('--work-dir', '--work-dir', [CompletionResultType]::ParameterName, 'Where downloaded status files, per-job XML and the replays are kept')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gradle-flaky;buildkite;help' {
            [CompletionResult]::new('upload', 'upload', [CompletionResultType]::ParameterValue, 'Upload the sub-pipeline for a selection (pipe to `buildkite-agent pipeline upload`)')
            [CompletionResult]::new('wrap', 'wrap', [CompletionResultType]::ParameterValue, 'Run a batch (through the repetition engine) or a command, record how it ended in a status file, always exit 0')
            [CompletionResult]::new('analyze', 'analyze', [CompletionResultType]::ParameterValue, 'The final step: derive each job''s outcome, upload flakiness-outcomes.json, annotate')
            [CompletionResult]::new('triage', 'triage', [CompletionResultType]::ParameterValue, 'The triage step (with --triage / FLAKINESS_TRIAGE): replay the failing tests, annotate')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'gradle-flaky;buildkite;help;upload' {
            break
        }
        'gradle-flaky;buildkite;help;wrap' {
            break
        }
        'gradle-flaky;buildkite;help;analyze' {
            break
        }
        'gradle-flaky;buildkite;help;triage' {
            break
        }
        'gradle-flaky;buildkite;help;help' {
            break
        }
        'gradle-flaky;github' {
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('workflow', 'workflow', [CompletionResultType]::ParameterValue, 'Print a GitHub Actions workflow that runs the flakiness check (plan, a matrix of batches, the report)')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run one batch of the plan (a matrix job): record rc, duration and heap dumps, keep its XML, always exit 0')
            [CompletionResult]::new('analyze', 'analyze', [CompletionResultType]::ParameterValue, 'The report job: each batch''s outcome, the report in the job summary, annotations, flakiness-outcomes.json')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'gradle-flaky;github;workflow' {
            [CompletionResult]::new('--on', '--on', [CompletionResultType]::ParameterName, 'What starts the workflow (repeatable or comma-separated)')
            [CompletionResult]::new('--iters', '--iters', [CompletionResultType]::ParameterName, 'Iterations for every kind (sets unit, integ and REST counts)')
            [CompletionResult]::new('--unit-iters', '--unit-iters', [CompletionResultType]::ParameterName, 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]')
            [CompletionResult]::new('--integ-iters', '--integ-iters', [CompletionResultType]::ParameterName, 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]')
            [CompletionResult]::new('--rest-iters', '--rest-iters', [CompletionResultType]::ParameterName, 'Gradle invocations per REST batch [default: 10]')
            [CompletionResult]::new('--suite-timeout', '--suite-timeout', [CompletionResultType]::ParameterName, 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 60m]')
            [CompletionResult]::new('--repetition', '--repetition', [CompletionResultType]::ParameterName, 'How tests repeat: in test JVMs (TestNG invocationCount, gradle-flaky''s JUnit 4 runner, the randomizedtesting runner''s -Dtests.iters; the JUnit Platform engine only with in-jvm), each class''s iterations spread over several fresh JVMs of one Gradle invocation, or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow; and when a chunk''s iterations in one JVM cost more than fresh Gradle runs (on average, or its last ones each: state accumulating in the JVM), the rest of its batch runs as Gradle runs, said in the run and the report (in-jvm stays, and says what it cost); the build''s durations file remembers the class, and the next auto run on the same commit starts it on Gradle runs (a class that leaked state by itself: a fresh JVM per execution instead). The report counts each test''s first executions in a JVM (the CI condition) apart from its repeats')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'What runs beside the selected tests. alone: the selected classes on their own (their verdict bounds the test by itself); task: each selected test''s whole test task as CI runs it (every class, no --tests filter, the build''s own test JVMs and forks), one Gradle run per execution, a seeded sample of its classes when the whole task cannot fit the budget (its verdict bounds the test in CI''s condition, beside its neighbours); both: the two, counted apart so that they can be compared [default: alone]')
            [CompletionResult]::new('--unmute-check', '--unmute-check', [CompletionResultType]::ParameterName, 'Whole-task runs (each a fresh test JVM, as CI runs the test) that back a test selected because it was unmuted (--unmuted) and repeated in one test JVM: a clean in-JVM verdict bounds repeats in a warm JVM, these bound the test as CI runs it. 5 runs catch a test failing every fresh first run every time, one failing half of them 97 times in 100; 0 turns the check off; --context task|both runs the task anyway [default: 5]')
            [CompletionResult]::new('--sample-seed', '--sample-seed', [CompletionResultType]::ParameterName, 'The seed of the random sample of a whole test task''s classes that runs when the task is too big for the budget (--context task|both): the plan and the report say the seed used, and the same seed, classes and durations give the same sample [default: a fresh one]')
            [CompletionResult]::new('--cap', '--cap', [CompletionResultType]::ParameterName, 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2')
            [CompletionResult]::new('--detect-rate', '--detect-rate', [CompletionResultType]::ParameterName, 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'Confidence for --detect-rate')
            [CompletionResult]::new('--budget', '--budget', [CompletionResultType]::ParameterName, 'The time each batch job may take (90s, 20m, 1h). A batch the durations say cannot fit is split into shards (--max-shards); locally and in a CI job its iterations run in chunks, each checked to fit what is left before it starts (a CI job''s budget cut to what its timeout leaves), each with a fresh seed, and a batch out of budget stops cleanly and reports what ran [default: the job''s timeout minus 2 minutes (--batch-timeout locally, --step-timeout on Buildkite, the workflow''s job timeout on GitHub)]')
            [CompletionResult]::new('--durations', '--durations', [CompletionResultType]::ParameterName, 'Durations per test class: JUnit XML files or folders of an earlier run (e.g. the base branch''s build/test-results), or a flakiness-durations.json [default: what earlier runs recorded under .gradle/gradle-flaky/]')
            [CompletionResult]::new('--max-shards', '--max-shards', [CompletionResultType]::ParameterName, 'The most shards (parallel jobs, or batches run in turn locally) one batch is split into to fit the budget')
            [CompletionResult]::new('--muted-file', '--muted-file', [CompletionResultType]::ParameterName, 'The muted-tests file, relative to the project dir')
            [CompletionResult]::new('--runs-on', '--runs-on', [CompletionResultType]::ParameterName, 'The runner label of every job')
            [CompletionResult]::new('--java', '--java', [CompletionResultType]::ParameterName, 'The JDK version actions/setup-java installs')
            [CompletionResult]::new('--java-distribution', '--java-distribution', [CompletionResultType]::ParameterName, 'The JDK distribution actions/setup-java installs')
            [CompletionResult]::new('--gradle-version', '--gradle-version', [CompletionResultType]::ParameterName, 'A Gradle version for setup-gradle to install, for a build without a wrapper (default: the build''s ./gradlew)')
            [CompletionResult]::new('--job-timeout', '--job-timeout', [CompletionResultType]::ParameterName, 'Minutes of each batch job; the batch itself is stopped 2 minutes earlier')
            [CompletionResult]::new('--install', '--install', [CompletionResultType]::ParameterName, 'Shell command that puts gradle-flaky on PATH (default: `cargo install --locked gradle-flaky --version <this version>`, cached)')
            [CompletionResult]::new('--blocking-labels', '--blocking-labels', [CompletionResultType]::ParameterName, 'Pull-request labels that opt in to blocking (comma-separated, exact and case-sensitive): on a PR carrying one, proven flakiness fails the report step; default: never block')
            [CompletionResult]::new('--proven-exit-code', '--proven-exit-code', [CompletionResultType]::ParameterName, 'The exit code of a blocked report step: 3 to 125, not 124 (required with --blocking-labels)')
            [CompletionResult]::new('--ledger', '--ledger', [CompletionResultType]::ParameterName, 'Earlier run ledgers in the checkout (a file or a folder of *.jsonl, e.g. kept in the repository; `:`-separated) the report job reads: a failing test already failing on the base branch is noted as known flaky there. Every run''s own is the flakiness-ledger artifact')
            [CompletionResult]::new('--compare', '--compare', [CompletionResultType]::ParameterName, 'Also run each batch of a pull request on REF (as the plan job''s checkout names it, e.g. origin/main) in jobs of their own, and compare each test in the report job (fixed, not shown, same or worse); the report job keeps flakiness-comparison.json')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('--exit-code', '--exit-code', [CompletionResultType]::ParameterName, 'Fail the report job with the report''s exit code (1 a selected test failed, 3 no trustworthy result) on every pull request; default: report, don''t block. With --blocking-labels: only labelled pull requests, only proven flakiness')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'gradle-flaky;github;run' {
            [CompletionResult]::new('--batch', '--batch', [CompletionResultType]::ParameterName, 'The batch to run: the matrix entry''s `batch`, an index into the plan')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'The plan written by `pr --target github` or `manual --target github`')
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Where the status file and the batch''s JUnit XML are put (must be empty), to upload')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop the batch after DURATION (every process it started: SIGTERM, then SIGKILL); rc 124')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gradle-flaky;github;analyze' {
            [CompletionResult]::new('--outcomes', '--outcomes', [CompletionResultType]::ParameterName, 'Where the outcomes JSON (one payload per batch job) is written')
            [CompletionResult]::new('--sources', '--sources', [CompletionResultType]::ParameterName, 'The checkout, where failing tests'' sources are found for annotations')
            [CompletionResult]::new('--blocking-labels', '--blocking-labels', [CompletionResultType]::ParameterName, 'Pull-request labels that opt in to blocking (comma-separated, exact and case-sensitive): on a PR carrying one, proven flakiness fails the report step; default: never block')
            [CompletionResult]::new('--proven-exit-code', '--proven-exit-code', [CompletionResultType]::ParameterName, 'The exit code of a blocked report step: 3 to 125, not 124 (required with --blocking-labels)')
            [CompletionResult]::new('--ledger', '--ledger', [CompletionResultType]::ParameterName, 'Earlier run ledgers (files, or folders of *.jsonl such as downloaded flakiness-ledger artifacts or a file kept in the repository; repeatable, or `:`-separated): a failing test already failing on the pull request''s base branch is noted as known flaky there')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('--exit-code', '--exit-code', [CompletionResultType]::ParameterName, 'Exit with the report''s exit code (1 a selected test failed, 3 no trustworthy result) instead of 0. With --blocking-labels: only on a labelled pull request, only for proven flakiness')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gradle-flaky;github;help' {
            [CompletionResult]::new('workflow', 'workflow', [CompletionResultType]::ParameterValue, 'Print a GitHub Actions workflow that runs the flakiness check (plan, a matrix of batches, the report)')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run one batch of the plan (a matrix job): record rc, duration and heap dumps, keep its XML, always exit 0')
            [CompletionResult]::new('analyze', 'analyze', [CompletionResultType]::ParameterValue, 'The report job: each batch''s outcome, the report in the job summary, annotations, flakiness-outcomes.json')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'gradle-flaky;github;help;workflow' {
            break
        }
        'gradle-flaky;github;help;run' {
            break
        }
        'gradle-flaky;github;help;analyze' {
            break
        }
        'gradle-flaky;github;help;help' {
            break
        }
        'gradle-flaky;triage' {
            [CompletionResult]::new('--replays', '--replays', [CompletionResultType]::ParameterName, 'Replays of each failing seed (or of a test without seeds, alone)')
            [CompletionResult]::new('--triage-budget', '--triage-budget', [CompletionResultType]::ParameterName, 'The most replays triage runs in all, every test and seed together [default: 100]')
            [CompletionResult]::new('--triage-timeout', '--triage-timeout', [CompletionResultType]::ParameterName, 'The most time triage takes; a replay still running then is stopped (90s, 20m, 1h) [default: 30m]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Report format on stdout')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Also write the report to FILE (in --format)')
            [CompletionResult]::new('--junit', '--junit', [CompletionResultType]::ParameterName, 'Also write one merged Surefire-style JUnit XML file (flakyFailure/rerunFailure)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gradle-flaky;history' {
            [CompletionResult]::new('--ledger', '--ledger', [CompletionResultType]::ParameterName, 'Also read this ledger: a file, or a folder whose *.jsonl files are read at any depth (a downloaded CI artifact, a file kept in the repository). Repeatable')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format on stdout (html: one self-contained page)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'gradle-flaky;record' {
            [CompletionResult]::new('--commit', '--commit', [CompletionResultType]::ParameterName, 'The commit the build ran [default: $BUILDKITE_COMMIT, $GITHUB_SHA, else the checkout''s HEAD]')
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'The branch the build ran [default: $BUILDKITE_BRANCH, $GITHUB_HEAD_REF or $GITHUB_REF_NAME, else the checkout''s]')
            [CompletionResult]::new('--run-id', '--run-id', [CompletionResultType]::ParameterName, 'The build''s id, the key that records it once [default: Buildkite''s job, GitHub''s run, attempt and job with the reports'' digest, else the reports'' digest]')
            [CompletionResult]::new('--ledger', '--ledger', [CompletionResultType]::ParameterName, 'Where to append: a ledger folder (rotated as the build''s own) or a .jsonl file [default: flakiness-ledger.jsonl in the project dir on Buildkite or GitHub Actions, else the build''s own ledger, <project dir>/.gradle/gradle-flaky/ledger/]')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gradle-flaky;suspects' {
            [CompletionResult]::new('--ledger', '--ledger', [CompletionResultType]::ParameterName, 'Also read this ledger: a file, or a folder whose *.jsonl files are read at any depth (a downloaded CI artifact, a file kept in the repository). Repeatable')
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'Only the runs of this branch')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only the runs since TIME (RFC 3339), or for the last DURATION (30d, 2weeks)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format on stdout (html: one self-contained page with each suspect''s history)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'gradle-flaky;repeat' {
            [CompletionResult]::new('--times', '--times', [CompletionResultType]::ParameterName, 'How many times to run the command')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop an iteration that runs longer than this (its build and test JVMs, never your daemon), and end the loop')
            [CompletionResult]::new('--task-outcomes', '--task-outcomes', [CompletionResultType]::ParameterName, 'Write each iteration''s task outcomes to DIR/iter-<i>.json (a Buildkite batch reads them)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gradle-flaky;layout' {
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('--refresh', '--refresh', [CompletionResultType]::ParameterName, 'Ask Gradle again instead of using the cache')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gradle-flaky;man' {
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gradle-flaky;completions' {
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'Root of the Gradle build (where settings.gradle is)')
            [CompletionResult]::new('--gradle', '--gradle', [CompletionResultType]::ParameterName, 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH')
            [CompletionResult]::new('--layout-timeout', '--layout-timeout', [CompletionResultType]::ParameterName, 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Stream Gradle''s output instead of showing progress')
            [CompletionResult]::new('--isolate', '--isolate', [CompletionResultType]::ParameterName, 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gradle-flaky;help' {
            [CompletionResult]::new('local', 'local', [CompletionResultType]::ParameterValue, 'Select, plan and run tests on this machine, then print the report')
            [CompletionResult]::new('bisect', 'bisect', [CompletionResultType]::ParameterValue, 'Find the commit that made a test flaky: bisect the first-parent line between a good and a bad commit, each point run as often as an exact test needs')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Show what would run, and what a clean result would prove; run nothing')
            [CompletionResult]::new('pr', 'pr', [CompletionResultType]::ParameterValue, 'Changed tests and unmutes of this branch, run here, uploaded to Buildkite, or planned for GitHub Actions')
            [CompletionResult]::new('manual', 'manual', [CompletionResultType]::ParameterValue, 'CI entry driven by FLAKINESS_* variables (the manual Buildkite pipeline or GitHub workflow)')
            [CompletionResult]::new('analyze', 'analyze', [CompletionResultType]::ParameterValue, 'Read JUnit XML under DIR and print the flakiness report')
            [CompletionResult]::new('buildkite', 'buildkite', [CompletionResultType]::ParameterValue, 'Buildkite: upload the sub-pipeline, wrap a batch, or run the final analyze step')
            [CompletionResult]::new('github', 'github', [CompletionResultType]::ParameterValue, 'GitHub Actions: print the workflow, run one matrix batch, or write the report job''s summary')
            [CompletionResult]::new('triage', 'triage', [CompletionResultType]::ParameterValue, 'Replay the failing tests of a finished run and say what kind of flaky each one is')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'Show what the run ledger holds of tests: rates by commit and condition, trend, the newest commit against its first-parent ancestors')
            [CompletionResult]::new('record', 'record', [CompletionResultType]::ParameterValue, 'Add an ordinary build''s test results to the run ledger: each test once, in its whole task')
            [CompletionResult]::new('suspects', 'suspects', [CompletionResultType]::ParameterValue, 'Tell flaky from broken from the ledger''s runs, with nothing re-run; show tests that fail together')
            [CompletionResult]::new('repeat', 'repeat', [CompletionResultType]::ParameterValue, 'Run one Gradle invocation N times, keeping every iteration''s JUnit XML')
            [CompletionResult]::new('layout', 'layout', [CompletionResultType]::ParameterValue, 'Print the build as Gradle sees it (projects, source sets, test tasks) as JSON')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff) to stdout')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'gradle-flaky;help;local' {
            break
        }
        'gradle-flaky;help;bisect' {
            break
        }
        'gradle-flaky;help;plan' {
            break
        }
        'gradle-flaky;help;pr' {
            break
        }
        'gradle-flaky;help;manual' {
            break
        }
        'gradle-flaky;help;analyze' {
            break
        }
        'gradle-flaky;help;buildkite' {
            [CompletionResult]::new('upload', 'upload', [CompletionResultType]::ParameterValue, 'Upload the sub-pipeline for a selection (pipe to `buildkite-agent pipeline upload`)')
            [CompletionResult]::new('wrap', 'wrap', [CompletionResultType]::ParameterValue, 'Run a batch (through the repetition engine) or a command, record how it ended in a status file, always exit 0')
            [CompletionResult]::new('analyze', 'analyze', [CompletionResultType]::ParameterValue, 'The final step: derive each job''s outcome, upload flakiness-outcomes.json, annotate')
            [CompletionResult]::new('triage', 'triage', [CompletionResultType]::ParameterValue, 'The triage step (with --triage / FLAKINESS_TRIAGE): replay the failing tests, annotate')
            break
        }
        'gradle-flaky;help;buildkite;upload' {
            break
        }
        'gradle-flaky;help;buildkite;wrap' {
            break
        }
        'gradle-flaky;help;buildkite;analyze' {
            break
        }
        'gradle-flaky;help;buildkite;triage' {
            break
        }
        'gradle-flaky;help;github' {
            [CompletionResult]::new('workflow', 'workflow', [CompletionResultType]::ParameterValue, 'Print a GitHub Actions workflow that runs the flakiness check (plan, a matrix of batches, the report)')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run one batch of the plan (a matrix job): record rc, duration and heap dumps, keep its XML, always exit 0')
            [CompletionResult]::new('analyze', 'analyze', [CompletionResultType]::ParameterValue, 'The report job: each batch''s outcome, the report in the job summary, annotations, flakiness-outcomes.json')
            break
        }
        'gradle-flaky;help;github;workflow' {
            break
        }
        'gradle-flaky;help;github;run' {
            break
        }
        'gradle-flaky;help;github;analyze' {
            break
        }
        'gradle-flaky;help;triage' {
            break
        }
        'gradle-flaky;help;history' {
            break
        }
        'gradle-flaky;help;record' {
            break
        }
        'gradle-flaky;help;suspects' {
            break
        }
        'gradle-flaky;help;repeat' {
            break
        }
        'gradle-flaky;help;layout' {
            break
        }
        'gradle-flaky;help;man' {
            break
        }
        'gradle-flaky;help;completions' {
            break
        }
        'gradle-flaky;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
