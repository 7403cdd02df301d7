
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
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand local 'Select, plan and run tests on this machine, then print the report'
            cand bisect 'Find the commit that made a test flaky: bisect the first-parent line between a good and a bad commit, each point run as often as an exact test needs'
            cand plan 'Show what would run, and what a clean result would prove; run nothing'
            cand pr 'Changed tests and unmutes of this branch, run here, uploaded to Buildkite, or planned for GitHub Actions'
            cand manual 'CI entry driven by FLAKINESS_* variables (the manual Buildkite pipeline or GitHub workflow)'
            cand analyze 'Read JUnit XML under DIR and print the flakiness report'
            cand buildkite 'Buildkite: upload the sub-pipeline, wrap a batch, or run the final analyze step'
            cand github 'GitHub Actions: print the workflow, run one matrix batch, or write the report job''s summary'
            cand triage 'Replay the failing tests of a finished run and say what kind of flaky each one is'
            cand history 'Show what the run ledger holds of tests: rates by commit and condition, trend, the newest commit against its first-parent ancestors'
            cand record 'Add an ordinary build''s test results to the run ledger: each test once, in its whole task'
            cand suspects 'Tell flaky from broken from the ledger''s runs, with nothing re-run; show tests that fail together'
            cand repeat 'Run one Gradle invocation N times, keeping every iteration''s JUnit XML'
            cand layout 'Print the build as Gradle sees it (projects, source sets, test tasks) as JSON'
            cand man 'Print the man page (roff) to stdout'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'gradle-flaky;local'= {
            cand --base 'Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH or $GITHUB_BASE_REF, else origin/main, else main'
            cand --muted-file 'The muted-tests file, relative to the project dir'
            cand --task-cap 'Test tasks run per class when its source set''s own task is disabled and several others run it (BWC versions, newest first)'
            cand --subclass-cap 'Concrete subclasses run per abstract base class, or per changed concrete test class (spread over projects); those left out are reported as not checked'
            cand --iters 'Iterations for every kind (sets unit, integ and REST counts)'
            cand --unit-iters 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]'
            cand --integ-iters 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]'
            cand --rest-iters 'Gradle invocations per REST batch [default: 10]'
            cand --suite-timeout 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 60m]'
            cand --repetition 'How tests repeat: in test JVMs (TestNG invocationCount, gradle-flaky''s JUnit 4 runner, the randomizedtesting runner''s -Dtests.iters; the JUnit Platform engine only with in-jvm), each class''s iterations spread over several fresh JVMs of one Gradle invocation, or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow; and when a chunk''s iterations in one JVM cost more than fresh Gradle runs (on average, or its last ones each: state accumulating in the JVM), the rest of its batch runs as Gradle runs, said in the run and the report (in-jvm stays, and says what it cost); the build''s durations file remembers the class, and the next auto run on the same commit starts it on Gradle runs (a class that leaked state by itself: a fresh JVM per execution instead). The report counts each test''s first executions in a JVM (the CI condition) apart from its repeats'
            cand --context 'What runs beside the selected tests. alone: the selected classes on their own (their verdict bounds the test by itself); task: each selected test''s whole test task as CI runs it (every class, no --tests filter, the build''s own test JVMs and forks), one Gradle run per execution, a seeded sample of its classes when the whole task cannot fit the budget (its verdict bounds the test in CI''s condition, beside its neighbours); both: the two, counted apart so that they can be compared [default: alone]'
            cand --unmute-check 'Whole-task runs (each a fresh test JVM, as CI runs the test) that back a test selected because it was unmuted (--unmuted) and repeated in one test JVM: a clean in-JVM verdict bounds repeats in a warm JVM, these bound the test as CI runs it. 5 runs catch a test failing every fresh first run every time, one failing half of them 97 times in 100; 0 turns the check off; --context task|both runs the task anyway [default: 5]'
            cand --sample-seed 'The seed of the random sample of a whole test task''s classes that runs when the task is too big for the budget (--context task|both): the plan and the report say the seed used, and the same seed, classes and durations give the same sample [default: a fresh one]'
            cand --cap 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2'
            cand --detect-rate 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence'
            cand --confidence 'Confidence for --detect-rate'
            cand --budget 'The time each batch job may take (90s, 20m, 1h). A batch the durations say cannot fit is split into shards (--max-shards); locally and in a CI job its iterations run in chunks, each checked to fit what is left before it starts (a CI job''s budget cut to what its timeout leaves), each with a fresh seed, and a batch out of budget stops cleanly and reports what ran [default: the job''s timeout minus 2 minutes (--batch-timeout locally, --step-timeout on Buildkite, the workflow''s job timeout on GitHub)]'
            cand --durations 'Durations per test class: JUnit XML files or folders of an earlier run (e.g. the base branch''s build/test-results), or a flakiness-durations.json [default: what earlier runs recorded under .gradle/gradle-flaky/]'
            cand --max-shards 'The most shards (parallel jobs, or batches run in turn locally) one batch is split into to fit the budget'
            cand --format 'Report format on stdout'
            cand --report 'Also write the report to FILE (in --format)'
            cand --junit 'Also write one merged Surefire-style JUnit XML file (flakyFailure/rerunFailure)'
            cand --triage 'After the run, replay each failing test N times per failing seed (up to 3 seeds, the seed pinned), or alone N times when it has no seed, and say what kind of flaky it is (0: off). Here and on Buildkite (a triage step); not with --target github'
            cand --triage-budget 'The most replays triage runs in all, every test and seed together [default: 100]'
            cand --triage-timeout 'The most time triage takes; a replay still running then is stopped (90s, 20m, 1h) [default: 30m]'
            cand --stop-on-flaky 'A test proven flaky (a real failure and a pass) gets no more iterations [default: on for changed tests, off for unmuted and explicit ones, which need their full count to clear]'
            cand --for 'With --until-fail: how long each batch repeats (90s, 20m, 1h)'
            cand --batch-timeout 'Stop a Gradle invocation (a batch, or one REST iteration) that runs longer than this (default: suite timeout plus 10 minutes)'
            cand --compare 'Also run the selected tests on REF (a branch, tag or commit; in a git worktree of it in the run folder, with this branch''s muted-tests file), REF first, and compare each test: fixed, not shown, same or worse (Fisher''s exact test). A test the ledger already holds enough runs of on REF, in the same condition, is not run there again'
            cand --looks 'With --compare: looks at this working tree''s runs, after each 1/K of them; a test shown fixed at a look stops there (α spent over the looks: O''Brien–Fleming type); 1 looks only at the end [default: 2]'
            cand --ledger 'Also read this run ledger (a file, or a folder of *.jsonl such as downloaded CI artifacts; repeatable, or `:`-separated): REF''s earlier runs for --compare, and the base branch''s for the known-flaky note of --changed/--unmuted runs'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand --changed 'Add test files changed against the merge base'
            cand --unmuted 'Add entries removed from muted-tests.yml against the merge base'
            cand --refresh-layout 'Re-read the layout from Gradle instead of the cache'
            cand --allow-host-mutating-tasks 'Also run host-mutating Test tasks (named destructive*: they install packages and change services on this machine). Only on a disposable packaging host'
            cand --no-stop-on-flaky 'Every test gets its full count, proven flaky or not'
            cand --until-fail 'Repeat each selected test until its first real failure, for at most --for per batch (in chunks, each with a fresh seed); no failure by then is a clean result of the executions that ran'
            cand --size-after 'With --compare: run this working tree''s side as many times as a fix needs to show at the rate measured on REF (at most 10 times the planned count), instead of the planned count'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'gradle-flaky;bisect'= {
            cand --good 'A commit where the test is not flaky (a branch, tag or commit): the search''s start'
            cand --bad 'A commit where the test is flaky, on whose first-parent line the good one lies'
            cand --max-runs 'The most runs of the test at one commit; a commit still not told from either end by then ends the search without a culprit'
            cand --error-rate 'The chance, at most, that the commit named is the wrong one (or an end called what it is not), shared over the ends'' check and every halving'
            cand --base 'Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH or $GITHUB_BASE_REF, else origin/main, else main'
            cand --muted-file 'The muted-tests file, relative to the project dir'
            cand --task-cap 'Test tasks run per class when its source set''s own task is disabled and several others run it (BWC versions, newest first)'
            cand --subclass-cap 'Concrete subclasses run per abstract base class, or per changed concrete test class (spread over projects); those left out are reported as not checked'
            cand --iters 'Iterations for every kind (sets unit, integ and REST counts)'
            cand --unit-iters 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]'
            cand --integ-iters 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]'
            cand --rest-iters 'Gradle invocations per REST batch [default: 10]'
            cand --suite-timeout 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 60m]'
            cand --repetition 'How tests repeat: in test JVMs (TestNG invocationCount, gradle-flaky''s JUnit 4 runner, the randomizedtesting runner''s -Dtests.iters; the JUnit Platform engine only with in-jvm), each class''s iterations spread over several fresh JVMs of one Gradle invocation, or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow; and when a chunk''s iterations in one JVM cost more than fresh Gradle runs (on average, or its last ones each: state accumulating in the JVM), the rest of its batch runs as Gradle runs, said in the run and the report (in-jvm stays, and says what it cost); the build''s durations file remembers the class, and the next auto run on the same commit starts it on Gradle runs (a class that leaked state by itself: a fresh JVM per execution instead). The report counts each test''s first executions in a JVM (the CI condition) apart from its repeats'
            cand --context 'What runs beside the selected tests. alone: the selected classes on their own (their verdict bounds the test by itself); task: each selected test''s whole test task as CI runs it (every class, no --tests filter, the build''s own test JVMs and forks), one Gradle run per execution, a seeded sample of its classes when the whole task cannot fit the budget (its verdict bounds the test in CI''s condition, beside its neighbours); both: the two, counted apart so that they can be compared [default: alone]'
            cand --unmute-check 'Whole-task runs (each a fresh test JVM, as CI runs the test) that back a test selected because it was unmuted (--unmuted) and repeated in one test JVM: a clean in-JVM verdict bounds repeats in a warm JVM, these bound the test as CI runs it. 5 runs catch a test failing every fresh first run every time, one failing half of them 97 times in 100; 0 turns the check off; --context task|both runs the task anyway [default: 5]'
            cand --sample-seed 'The seed of the random sample of a whole test task''s classes that runs when the task is too big for the budget (--context task|both): the plan and the report say the seed used, and the same seed, classes and durations give the same sample [default: a fresh one]'
            cand --cap 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2'
            cand --detect-rate 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence'
            cand --confidence 'Confidence for --detect-rate'
            cand --budget 'The time each batch job may take (90s, 20m, 1h). A batch the durations say cannot fit is split into shards (--max-shards); locally and in a CI job its iterations run in chunks, each checked to fit what is left before it starts (a CI job''s budget cut to what its timeout leaves), each with a fresh seed, and a batch out of budget stops cleanly and reports what ran [default: the job''s timeout minus 2 minutes (--batch-timeout locally, --step-timeout on Buildkite, the workflow''s job timeout on GitHub)]'
            cand --durations 'Durations per test class: JUnit XML files or folders of an earlier run (e.g. the base branch''s build/test-results), or a flakiness-durations.json [default: what earlier runs recorded under .gradle/gradle-flaky/]'
            cand --max-shards 'The most shards (parallel jobs, or batches run in turn locally) one batch is split into to fit the budget'
            cand --ledger 'Also read this run ledger (a file, or a folder of *.jsonl; repeatable, or `:`-separated): runs it holds of a commit count toward that point'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand --changed 'Add test files changed against the merge base'
            cand --unmuted 'Add entries removed from muted-tests.yml against the merge base'
            cand --refresh-layout 'Re-read the layout from Gradle instead of the cache'
            cand --allow-host-mutating-tasks 'Also run host-mutating Test tasks (named destructive*: they install packages and change services on this machine). Only on a disposable packaging host'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'gradle-flaky;plan'= {
            cand --base 'Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH or $GITHUB_BASE_REF, else origin/main, else main'
            cand --muted-file 'The muted-tests file, relative to the project dir'
            cand --task-cap 'Test tasks run per class when its source set''s own task is disabled and several others run it (BWC versions, newest first)'
            cand --subclass-cap 'Concrete subclasses run per abstract base class, or per changed concrete test class (spread over projects); those left out are reported as not checked'
            cand --iters 'Iterations for every kind (sets unit, integ and REST counts)'
            cand --unit-iters 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]'
            cand --integ-iters 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]'
            cand --rest-iters 'Gradle invocations per REST batch [default: 10]'
            cand --suite-timeout 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 60m]'
            cand --repetition 'How tests repeat: in test JVMs (TestNG invocationCount, gradle-flaky''s JUnit 4 runner, the randomizedtesting runner''s -Dtests.iters; the JUnit Platform engine only with in-jvm), each class''s iterations spread over several fresh JVMs of one Gradle invocation, or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow; and when a chunk''s iterations in one JVM cost more than fresh Gradle runs (on average, or its last ones each: state accumulating in the JVM), the rest of its batch runs as Gradle runs, said in the run and the report (in-jvm stays, and says what it cost); the build''s durations file remembers the class, and the next auto run on the same commit starts it on Gradle runs (a class that leaked state by itself: a fresh JVM per execution instead). The report counts each test''s first executions in a JVM (the CI condition) apart from its repeats'
            cand --context 'What runs beside the selected tests. alone: the selected classes on their own (their verdict bounds the test by itself); task: each selected test''s whole test task as CI runs it (every class, no --tests filter, the build''s own test JVMs and forks), one Gradle run per execution, a seeded sample of its classes when the whole task cannot fit the budget (its verdict bounds the test in CI''s condition, beside its neighbours); both: the two, counted apart so that they can be compared [default: alone]'
            cand --unmute-check 'Whole-task runs (each a fresh test JVM, as CI runs the test) that back a test selected because it was unmuted (--unmuted) and repeated in one test JVM: a clean in-JVM verdict bounds repeats in a warm JVM, these bound the test as CI runs it. 5 runs catch a test failing every fresh first run every time, one failing half of them 97 times in 100; 0 turns the check off; --context task|both runs the task anyway [default: 5]'
            cand --sample-seed 'The seed of the random sample of a whole test task''s classes that runs when the task is too big for the budget (--context task|both): the plan and the report say the seed used, and the same seed, classes and durations give the same sample [default: a fresh one]'
            cand --cap 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2'
            cand --detect-rate 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence'
            cand --confidence 'Confidence for --detect-rate'
            cand --budget 'The time each batch job may take (90s, 20m, 1h). A batch the durations say cannot fit is split into shards (--max-shards); locally and in a CI job its iterations run in chunks, each checked to fit what is left before it starts (a CI job''s budget cut to what its timeout leaves), each with a fresh seed, and a batch out of budget stops cleanly and reports what ran [default: the job''s timeout minus 2 minutes (--batch-timeout locally, --step-timeout on Buildkite, the workflow''s job timeout on GitHub)]'
            cand --durations 'Durations per test class: JUnit XML files or folders of an earlier run (e.g. the base branch''s build/test-results), or a flakiness-durations.json [default: what earlier runs recorded under .gradle/gradle-flaky/]'
            cand --max-shards 'The most shards (parallel jobs, or batches run in turn locally) one batch is split into to fit the budget'
            cand --stop-on-flaky 'A test proven flaky (a real failure and a pass) gets no more iterations [default: on for changed tests, off for unmuted and explicit ones, which need their full count to clear]'
            cand --for 'With --until-fail: how long each batch repeats (90s, 20m, 1h)'
            cand --batch-timeout 'Stop a Gradle invocation (a batch, or one REST iteration) that runs longer than this (default: suite timeout plus 10 minutes)'
            cand --format 'Output: text for people, json (the plan JSON of docs/src/reference/json.md), or shell (one POSIX-quoted command a line; a `#` comment before a command only gradle-flaky''s init script repeats, which typed by hand runs each test once)'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand --changed 'Add test files changed against the merge base'
            cand --unmuted 'Add entries removed from muted-tests.yml against the merge base'
            cand --refresh-layout 'Re-read the layout from Gradle instead of the cache'
            cand --allow-host-mutating-tasks 'Also run host-mutating Test tasks (named destructive*: they install packages and change services on this machine). Only on a disposable packaging host'
            cand --no-stop-on-flaky 'Every test gets its full count, proven flaky or not'
            cand --until-fail 'Repeat each selected test until its first real failure, for at most --for per batch (in chunks, each with a fresh seed); no failure by then is a clean result of the executions that ran'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'gradle-flaky;pr'= {
            cand --base 'Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH or $GITHUB_BASE_REF, else origin/main, else main'
            cand --target 'Where the tests run (default: github when $GITHUB_ACTIONS is set, buildkite when $BUILDKITE is, else local)'
            cand --muted-file 'The muted-tests file, relative to the project dir'
            cand --task-cap 'Test tasks run per class when its source set''s own task is disabled and several others run it (BWC versions, newest first)'
            cand --subclass-cap 'Concrete subclasses run per abstract base class, or per changed concrete test class (spread over projects); those left out are reported as not checked'
            cand --iters 'Iterations for every kind (sets unit, integ and REST counts)'
            cand --unit-iters 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]'
            cand --integ-iters 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]'
            cand --rest-iters 'Gradle invocations per REST batch [default: 10]'
            cand --suite-timeout 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 60m]'
            cand --repetition 'How tests repeat: in test JVMs (TestNG invocationCount, gradle-flaky''s JUnit 4 runner, the randomizedtesting runner''s -Dtests.iters; the JUnit Platform engine only with in-jvm), each class''s iterations spread over several fresh JVMs of one Gradle invocation, or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow; and when a chunk''s iterations in one JVM cost more than fresh Gradle runs (on average, or its last ones each: state accumulating in the JVM), the rest of its batch runs as Gradle runs, said in the run and the report (in-jvm stays, and says what it cost); the build''s durations file remembers the class, and the next auto run on the same commit starts it on Gradle runs (a class that leaked state by itself: a fresh JVM per execution instead). The report counts each test''s first executions in a JVM (the CI condition) apart from its repeats'
            cand --context 'What runs beside the selected tests. alone: the selected classes on their own (their verdict bounds the test by itself); task: each selected test''s whole test task as CI runs it (every class, no --tests filter, the build''s own test JVMs and forks), one Gradle run per execution, a seeded sample of its classes when the whole task cannot fit the budget (its verdict bounds the test in CI''s condition, beside its neighbours); both: the two, counted apart so that they can be compared [default: alone]'
            cand --unmute-check 'Whole-task runs (each a fresh test JVM, as CI runs the test) that back a test selected because it was unmuted (--unmuted) and repeated in one test JVM: a clean in-JVM verdict bounds repeats in a warm JVM, these bound the test as CI runs it. 5 runs catch a test failing every fresh first run every time, one failing half of them 97 times in 100; 0 turns the check off; --context task|both runs the task anyway [default: 5]'
            cand --sample-seed 'The seed of the random sample of a whole test task''s classes that runs when the task is too big for the budget (--context task|both): the plan and the report say the seed used, and the same seed, classes and durations give the same sample [default: a fresh one]'
            cand --cap 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2'
            cand --detect-rate 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence'
            cand --confidence 'Confidence for --detect-rate'
            cand --budget 'The time each batch job may take (90s, 20m, 1h). A batch the durations say cannot fit is split into shards (--max-shards); locally and in a CI job its iterations run in chunks, each checked to fit what is left before it starts (a CI job''s budget cut to what its timeout leaves), each with a fresh seed, and a batch out of budget stops cleanly and reports what ran [default: the job''s timeout minus 2 minutes (--batch-timeout locally, --step-timeout on Buildkite, the workflow''s job timeout on GitHub)]'
            cand --durations 'Durations per test class: JUnit XML files or folders of an earlier run (e.g. the base branch''s build/test-results), or a flakiness-durations.json [default: what earlier runs recorded under .gradle/gradle-flaky/]'
            cand --max-shards 'The most shards (parallel jobs, or batches run in turn locally) one batch is split into to fit the budget'
            cand --format 'Report format on stdout'
            cand --report 'Also write the report to FILE (in --format)'
            cand --junit 'Also write one merged Surefire-style JUnit XML file (flakyFailure/rerunFailure)'
            cand --agent 'Agent selector for batch steps, as KEY=VALUE (repeatable or comma-separated)'
            cand --step-timeout 'Step timeout of each batch step, in minutes'
            cand --agent-bin 'How agents run gradle-flaky itself (a path or command on the agent)'
            cand --group 'Group name of the uploaded steps'
            cand --blocking-labels 'Pull-request labels that opt in to blocking (comma-separated, exact and case-sensitive): on a PR carrying one, proven flakiness fails the report step; default: never block'
            cand --proven-exit-code 'The exit code of a blocked report step: 3 to 125, not 124 (required with --blocking-labels)'
            cand --triage 'After the run, replay each failing test N times per failing seed (up to 3 seeds, the seed pinned), or alone N times when it has no seed, and say what kind of flaky it is (0: off). Here and on Buildkite (a triage step); not with --target github'
            cand --triage-budget 'The most replays triage runs in all, every test and seed together [default: 100]'
            cand --triage-timeout 'The most time triage takes; a replay still running then is stopped (90s, 20m, 1h) [default: 30m]'
            cand --stop-on-flaky 'A test proven flaky (a real failure and a pass) gets no more iterations [default: on for changed tests, off for unmuted and explicit ones, which need their full count to clear]'
            cand --batch-timeout 'Stop a local Gradle invocation (a batch, or one REST iteration) that runs longer than this (default: suite timeout plus 10 minutes)'
            cand --compare 'Also run the selected tests on REF (a branch, tag or commit) and compare each test: fixed, not shown, same or worse (Fisher''s exact test). On Buildkite or GitHub: each batch also runs in a job that checks out REF (a git worktree of its commit, with this branch''s muted-tests file), and the report step compares; `pr --target local`: as `local --compare`'
            cand --learned 'What earlier CI runs learned: the flakiness-learned/ folder a report step keeps (their durations and ledger; GitHub''s generated workflow restores it from the Actions cache). Its durations plan the batches'' budgets and shards when --durations is not given (also `pr --target local`''s); a missing folder is no error (the first run has learned nothing yet)'
            cand --learned-build 'Buildkite: the build (its UUID, e.g. the last build of main) whose report step''s flakiness-learned/ to start from: downloaded here with `buildkite-agent artifact download --build` and read as --learned (default folder flakiness-learned), and handed to this pipeline''s report step, which fetches it too (its "known flaky on" note, and what it keeps for the next build)'
            cand --ledger 'Also read this run ledger (a file, or a folder of *.jsonl; repeatable, or `:`-separated) with the build''s own: a failing test already failing on the base branch is noted as known flaky there (--target local)'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand --allow-host-mutating-tasks 'Also run host-mutating Test tasks (named destructive*: they install packages and change services on this machine). Only on a disposable packaging host'
            cand --no-stop-on-flaky 'Every test gets its full count, proven flaky or not'
            cand --dry-run 'Print the pipeline (Buildkite) or the plan file (GitHub) instead of publishing it'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'gradle-flaky;manual'= {
            cand --task-cap 'Test tasks run per class when its source set''s own task is disabled and several others run it (BWC versions, newest first)'
            cand --subclass-cap 'Concrete subclasses run per abstract base class, or per changed concrete test class (spread over projects); those left out are reported as not checked'
            cand --iters 'Iterations for every kind (sets unit, integ and REST counts)'
            cand --unit-iters 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]'
            cand --integ-iters 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]'
            cand --rest-iters 'Gradle invocations per REST batch [default: 10]'
            cand --suite-timeout 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 60m]'
            cand --repetition 'How tests repeat: in test JVMs (TestNG invocationCount, gradle-flaky''s JUnit 4 runner, the randomizedtesting runner''s -Dtests.iters; the JUnit Platform engine only with in-jvm), each class''s iterations spread over several fresh JVMs of one Gradle invocation, or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow; and when a chunk''s iterations in one JVM cost more than fresh Gradle runs (on average, or its last ones each: state accumulating in the JVM), the rest of its batch runs as Gradle runs, said in the run and the report (in-jvm stays, and says what it cost); the build''s durations file remembers the class, and the next auto run on the same commit starts it on Gradle runs (a class that leaked state by itself: a fresh JVM per execution instead). The report counts each test''s first executions in a JVM (the CI condition) apart from its repeats'
            cand --context 'What runs beside the selected tests. alone: the selected classes on their own (their verdict bounds the test by itself); task: each selected test''s whole test task as CI runs it (every class, no --tests filter, the build''s own test JVMs and forks), one Gradle run per execution, a seeded sample of its classes when the whole task cannot fit the budget (its verdict bounds the test in CI''s condition, beside its neighbours); both: the two, counted apart so that they can be compared [default: alone]'
            cand --unmute-check 'Whole-task runs (each a fresh test JVM, as CI runs the test) that back a test selected because it was unmuted (--unmuted) and repeated in one test JVM: a clean in-JVM verdict bounds repeats in a warm JVM, these bound the test as CI runs it. 5 runs catch a test failing every fresh first run every time, one failing half of them 97 times in 100; 0 turns the check off; --context task|both runs the task anyway [default: 5]'
            cand --sample-seed 'The seed of the random sample of a whole test task''s classes that runs when the task is too big for the budget (--context task|both): the plan and the report say the seed used, and the same seed, classes and durations give the same sample [default: a fresh one]'
            cand --cap 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2'
            cand --detect-rate 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence'
            cand --confidence 'Confidence for --detect-rate'
            cand --budget 'The time each batch job may take (90s, 20m, 1h). A batch the durations say cannot fit is split into shards (--max-shards); locally and in a CI job its iterations run in chunks, each checked to fit what is left before it starts (a CI job''s budget cut to what its timeout leaves), each with a fresh seed, and a batch out of budget stops cleanly and reports what ran [default: the job''s timeout minus 2 minutes (--batch-timeout locally, --step-timeout on Buildkite, the workflow''s job timeout on GitHub)]'
            cand --durations 'Durations per test class: JUnit XML files or folders of an earlier run (e.g. the base branch''s build/test-results), or a flakiness-durations.json [default: what earlier runs recorded under .gradle/gradle-flaky/]'
            cand --max-shards 'The most shards (parallel jobs, or batches run in turn locally) one batch is split into to fit the budget'
            cand --agent 'Agent selector for batch steps, as KEY=VALUE (repeatable or comma-separated)'
            cand --step-timeout 'Step timeout of each batch step, in minutes'
            cand --agent-bin 'How agents run gradle-flaky itself (a path or command on the agent)'
            cand --group 'Group name of the uploaded steps'
            cand --blocking-labels 'Pull-request labels that opt in to blocking (comma-separated, exact and case-sensitive): on a PR carrying one, proven flakiness fails the report step; default: never block'
            cand --proven-exit-code 'The exit code of a blocked report step: 3 to 125, not 124 (required with --blocking-labels)'
            cand --triage 'After the run, replay each failing test N times per failing seed (up to 3 seeds, the seed pinned), or alone N times when it has no seed, and say what kind of flaky it is (0: off). Here and on Buildkite (a triage step); not with --target github'
            cand --triage-budget 'The most replays triage runs in all, every test and seed together [default: 100]'
            cand --triage-timeout 'The most time triage takes; a replay still running then is stopped (90s, 20m, 1h) [default: 30m]'
            cand --compare 'Also run the selected tests on REF (a branch, tag or commit) and compare each test: fixed, not shown, same or worse (Fisher''s exact test). On Buildkite or GitHub: each batch also runs in a job that checks out REF (a git worktree of its commit, with this branch''s muted-tests file), and the report step compares; `pr --target local`: as `local --compare`'
            cand --stop-on-flaky 'A test proven flaky (a real failure and a pass) gets no more iterations [default: on for changed tests, off for unmuted and explicit ones, which need their full count to clear]'
            cand --learned 'What earlier CI runs learned: the flakiness-learned/ folder a report step keeps (their durations and ledger; GitHub''s generated workflow restores it from the Actions cache). Its durations plan the batches'' budgets and shards when --durations is not given (also `pr --target local`''s); a missing folder is no error (the first run has learned nothing yet)'
            cand --learned-build 'Buildkite: the build (its UUID, e.g. the last build of main) whose report step''s flakiness-learned/ to start from: downloaded here with `buildkite-agent artifact download --build` and read as --learned (default folder flakiness-learned), and handed to this pipeline''s report step, which fetches it too (its "known flaky on" note, and what it keeps for the next build)'
            cand --target 'The CI to hand the tests to: buildkite or github (default: github when $GITHUB_ACTIONS is set, else buildkite)'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand --allow-host-mutating-tasks 'Also run host-mutating Test tasks (named destructive*: they install packages and change services on this machine). Only on a disposable packaging host'
            cand --no-stop-on-flaky 'Every test gets its full count, proven flaky or not'
            cand --dry-run 'Print the pipeline (Buildkite) or the plan file (GitHub) instead of publishing it'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'gradle-flaky;analyze'= {
            cand --since 'Skip reports older than TIME (RFC 3339 or seconds since the epoch) or than FILE''s mtime'
            cand --format 'Report format on stdout'
            cand --report 'Also write the report to FILE (in --format)'
            cand --junit 'Also write one merged Surefire-style JUnit XML file (flakyFailure/rerunFailure)'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;buildkite'= {
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help'
            cand --help 'Print help'
            cand upload 'Upload the sub-pipeline for a selection (pipe to `buildkite-agent pipeline upload`)'
            cand wrap 'Run a batch (through the repetition engine) or a command, record how it ended in a status file, always exit 0'
            cand analyze 'The final step: derive each job''s outcome, upload flakiness-outcomes.json, annotate'
            cand triage 'The triage step (with --triage / FLAKINESS_TRIAGE): replay the failing tests, annotate'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'gradle-flaky;buildkite;upload'= {
            cand --base 'Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH or $GITHUB_BASE_REF, else origin/main, else main'
            cand --muted-file 'The muted-tests file, relative to the project dir'
            cand --task-cap 'Test tasks run per class when its source set''s own task is disabled and several others run it (BWC versions, newest first)'
            cand --subclass-cap 'Concrete subclasses run per abstract base class, or per changed concrete test class (spread over projects); those left out are reported as not checked'
            cand --iters 'Iterations for every kind (sets unit, integ and REST counts)'
            cand --unit-iters 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]'
            cand --integ-iters 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]'
            cand --rest-iters 'Gradle invocations per REST batch [default: 10]'
            cand --suite-timeout 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 60m]'
            cand --repetition 'How tests repeat: in test JVMs (TestNG invocationCount, gradle-flaky''s JUnit 4 runner, the randomizedtesting runner''s -Dtests.iters; the JUnit Platform engine only with in-jvm), each class''s iterations spread over several fresh JVMs of one Gradle invocation, or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow; and when a chunk''s iterations in one JVM cost more than fresh Gradle runs (on average, or its last ones each: state accumulating in the JVM), the rest of its batch runs as Gradle runs, said in the run and the report (in-jvm stays, and says what it cost); the build''s durations file remembers the class, and the next auto run on the same commit starts it on Gradle runs (a class that leaked state by itself: a fresh JVM per execution instead). The report counts each test''s first executions in a JVM (the CI condition) apart from its repeats'
            cand --context 'What runs beside the selected tests. alone: the selected classes on their own (their verdict bounds the test by itself); task: each selected test''s whole test task as CI runs it (every class, no --tests filter, the build''s own test JVMs and forks), one Gradle run per execution, a seeded sample of its classes when the whole task cannot fit the budget (its verdict bounds the test in CI''s condition, beside its neighbours); both: the two, counted apart so that they can be compared [default: alone]'
            cand --unmute-check 'Whole-task runs (each a fresh test JVM, as CI runs the test) that back a test selected because it was unmuted (--unmuted) and repeated in one test JVM: a clean in-JVM verdict bounds repeats in a warm JVM, these bound the test as CI runs it. 5 runs catch a test failing every fresh first run every time, one failing half of them 97 times in 100; 0 turns the check off; --context task|both runs the task anyway [default: 5]'
            cand --sample-seed 'The seed of the random sample of a whole test task''s classes that runs when the task is too big for the budget (--context task|both): the plan and the report say the seed used, and the same seed, classes and durations give the same sample [default: a fresh one]'
            cand --cap 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2'
            cand --detect-rate 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence'
            cand --confidence 'Confidence for --detect-rate'
            cand --budget 'The time each batch job may take (90s, 20m, 1h). A batch the durations say cannot fit is split into shards (--max-shards); locally and in a CI job its iterations run in chunks, each checked to fit what is left before it starts (a CI job''s budget cut to what its timeout leaves), each with a fresh seed, and a batch out of budget stops cleanly and reports what ran [default: the job''s timeout minus 2 minutes (--batch-timeout locally, --step-timeout on Buildkite, the workflow''s job timeout on GitHub)]'
            cand --durations 'Durations per test class: JUnit XML files or folders of an earlier run (e.g. the base branch''s build/test-results), or a flakiness-durations.json [default: what earlier runs recorded under .gradle/gradle-flaky/]'
            cand --max-shards 'The most shards (parallel jobs, or batches run in turn locally) one batch is split into to fit the budget'
            cand --agent 'Agent selector for batch steps, as KEY=VALUE (repeatable or comma-separated)'
            cand --step-timeout 'Step timeout of each batch step, in minutes'
            cand --agent-bin 'How agents run gradle-flaky itself (a path or command on the agent)'
            cand --group 'Group name of the uploaded steps'
            cand --blocking-labels 'Pull-request labels that opt in to blocking (comma-separated, exact and case-sensitive): on a PR carrying one, proven flakiness fails the report step; default: never block'
            cand --proven-exit-code 'The exit code of a blocked report step: 3 to 125, not 124 (required with --blocking-labels)'
            cand --triage 'After the run, replay each failing test N times per failing seed (up to 3 seeds, the seed pinned), or alone N times when it has no seed, and say what kind of flaky it is (0: off). Here and on Buildkite (a triage step); not with --target github'
            cand --triage-budget 'The most replays triage runs in all, every test and seed together [default: 100]'
            cand --triage-timeout 'The most time triage takes; a replay still running then is stopped (90s, 20m, 1h) [default: 30m]'
            cand --compare 'Also run the selected tests on REF (a branch, tag or commit) and compare each test: fixed, not shown, same or worse (Fisher''s exact test). On Buildkite or GitHub: each batch also runs in a job that checks out REF (a git worktree of its commit, with this branch''s muted-tests file), and the report step compares; `pr --target local`: as `local --compare`'
            cand --stop-on-flaky 'A test proven flaky (a real failure and a pass) gets no more iterations [default: on for changed tests, off for unmuted and explicit ones, which need their full count to clear]'
            cand --learned 'What earlier CI runs learned: the flakiness-learned/ folder a report step keeps (their durations and ledger; GitHub''s generated workflow restores it from the Actions cache). Its durations plan the batches'' budgets and shards when --durations is not given (also `pr --target local`''s); a missing folder is no error (the first run has learned nothing yet)'
            cand --learned-build 'Buildkite: the build (its UUID, e.g. the last build of main) whose report step''s flakiness-learned/ to start from: downloaded here with `buildkite-agent artifact download --build` and read as --learned (default folder flakiness-learned), and handed to this pipeline''s report step, which fetches it too (its "known flaky on" note, and what it keeps for the next build)'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand --changed 'Add test files changed against the merge base'
            cand --unmuted 'Add entries removed from muted-tests.yml against the merge base'
            cand --refresh-layout 'Re-read the layout from Gradle instead of the cache'
            cand --allow-host-mutating-tasks 'Also run host-mutating Test tasks (named destructive*: they install packages and change services on this machine). Only on a disposable packaging host'
            cand --no-stop-on-flaky 'Every test gets its full count, proven flaky or not'
            cand --dry-run 'Print the pipeline JSON instead of uploading it'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'gradle-flaky;buildkite;wrap'= {
            cand --status-dir 'Where status-<jobId>.json is written'
            cand --kind 'The batch''s kind, recorded in the status file'
            cand --timeout 'Stop the command after DURATION (every process it started: SIGTERM, then SIGKILL); rc 124'
            cand --pass-exit-code 'Exit with the command''s rc when it is CODE (the report step''s opt-in blocking), else 0 as always'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand --from-env 'Run the batch in $FLAKINESS_BATCH_<n> (its typed batch as JSON; n = $BUILDKITE_PARALLEL_JOB, default 0), as an uploaded pipeline does'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;buildkite;analyze'= {
            cand --work-dir 'Where downloaded status files and per-job XML are kept'
            cand --ledger 'Earlier run ledgers (files, or folders of *.jsonl such as downloaded flakiness-ledger artifacts; repeatable, or `:`-separated): a failing test already failing on the pull request''s base branch is noted as known flaky there'
            cand --learned-build 'The build (its UUID) whose flakiness-learned/ to start from, fetched with `buildkite-agent artifact download --build` (the upload sets it from --learned-build): its ledger is read as --ledger, and this run''s durations and counts are kept over it in flakiness-learned/, an artifact of this step, for the next build'
            cand --blocking-labels 'Pull-request labels that opt in to blocking (comma-separated, exact and case-sensitive): on a PR carrying one, proven flakiness fails the report step; default: never block'
            cand --proven-exit-code 'The exit code of a blocked report step: 3 to 125, not 124 (required with --blocking-labels)'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;buildkite;triage'= {
            cand --work-dir 'Where downloaded status files, per-job XML and the replays are kept'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;buildkite;help'= {
            cand upload 'Upload the sub-pipeline for a selection (pipe to `buildkite-agent pipeline upload`)'
            cand wrap 'Run a batch (through the repetition engine) or a command, record how it ended in a status file, always exit 0'
            cand analyze 'The final step: derive each job''s outcome, upload flakiness-outcomes.json, annotate'
            cand triage 'The triage step (with --triage / FLAKINESS_TRIAGE): replay the failing tests, annotate'
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
        &'gradle-flaky;buildkite;help;help'= {
        }
        &'gradle-flaky;github'= {
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help'
            cand --help 'Print help'
            cand workflow 'Print a GitHub Actions workflow that runs the flakiness check (plan, a matrix of batches, the report)'
            cand run 'Run one batch of the plan (a matrix job): record rc, duration and heap dumps, keep its XML, always exit 0'
            cand analyze 'The report job: each batch''s outcome, the report in the job summary, annotations, flakiness-outcomes.json'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'gradle-flaky;github;workflow'= {
            cand --on 'What starts the workflow (repeatable or comma-separated)'
            cand --iters 'Iterations for every kind (sets unit, integ and REST counts)'
            cand --unit-iters 'Executions of each unit test (and custom source sets): -Dtests.iters where the randomizedtesting runner honours it, else Gradle runs [default: 100]'
            cand --integ-iters 'Executions of each internalClusterTest: -Dtests.iters, or Gradle runs [default: 20]'
            cand --rest-iters 'Gradle invocations per REST batch [default: 10]'
            cand --suite-timeout 'Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: 60m]'
            cand --repetition 'How tests repeat: in test JVMs (TestNG invocationCount, gradle-flaky''s JUnit 4 runner, the randomizedtesting runner''s -Dtests.iters; the JUnit Platform engine only with in-jvm), each class''s iterations spread over several fresh JVMs of one Gradle invocation, or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test task from its framework; the first run confirms, else Gradle runs follow; and when a chunk''s iterations in one JVM cost more than fresh Gradle runs (on average, or its last ones each: state accumulating in the JVM), the rest of its batch runs as Gradle runs, said in the run and the report (in-jvm stays, and says what it cost); the build''s durations file remembers the class, and the next auto run on the same commit starts it on Gradle runs (a class that leaked state by itself: a fresh JVM per execution instead). The report counts each test''s first executions in a JVM (the CI condition) apart from its repeats'
            cand --context 'What runs beside the selected tests. alone: the selected classes on their own (their verdict bounds the test by itself); task: each selected test''s whole test task as CI runs it (every class, no --tests filter, the build''s own test JVMs and forks), one Gradle run per execution, a seeded sample of its classes when the whole task cannot fit the budget (its verdict bounds the test in CI''s condition, beside its neighbours); both: the two, counted apart so that they can be compared [default: alone]'
            cand --unmute-check 'Whole-task runs (each a fresh test JVM, as CI runs the test) that back a test selected because it was unmuted (--unmuted) and repeated in one test JVM: a clean in-JVM verdict bounds repeats in a warm JVM, these bound the test as CI runs it. 5 runs catch a test failing every fresh first run every time, one failing half of them 97 times in 100; 0 turns the check off; --context task|both runs the task anyway [default: 5]'
            cand --sample-seed 'The seed of the random sample of a whole test task''s classes that runs when the task is too big for the budget (--context task|both): the plan and the report say the seed used, and the same seed, classes and durations give the same sample [default: a fresh one]'
            cand --cap 'Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2'
            cand --detect-rate 'Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence'
            cand --confidence 'Confidence for --detect-rate'
            cand --budget 'The time each batch job may take (90s, 20m, 1h). A batch the durations say cannot fit is split into shards (--max-shards); locally and in a CI job its iterations run in chunks, each checked to fit what is left before it starts (a CI job''s budget cut to what its timeout leaves), each with a fresh seed, and a batch out of budget stops cleanly and reports what ran [default: the job''s timeout minus 2 minutes (--batch-timeout locally, --step-timeout on Buildkite, the workflow''s job timeout on GitHub)]'
            cand --durations 'Durations per test class: JUnit XML files or folders of an earlier run (e.g. the base branch''s build/test-results), or a flakiness-durations.json [default: what earlier runs recorded under .gradle/gradle-flaky/]'
            cand --max-shards 'The most shards (parallel jobs, or batches run in turn locally) one batch is split into to fit the budget'
            cand --muted-file 'The muted-tests file, relative to the project dir'
            cand --runs-on 'The runner label of every job'
            cand --java 'The JDK version actions/setup-java installs'
            cand --java-distribution 'The JDK distribution actions/setup-java installs'
            cand --gradle-version 'A Gradle version for setup-gradle to install, for a build without a wrapper (default: the build''s ./gradlew)'
            cand --job-timeout 'Minutes of each batch job; the batch itself is stopped 2 minutes earlier'
            cand --install 'Shell command that puts gradle-flaky on PATH (default: `cargo install --locked gradle-flaky --version <this version>`, cached)'
            cand --blocking-labels 'Pull-request labels that opt in to blocking (comma-separated, exact and case-sensitive): on a PR carrying one, proven flakiness fails the report step; default: never block'
            cand --proven-exit-code 'The exit code of a blocked report step: 3 to 125, not 124 (required with --blocking-labels)'
            cand --ledger 'Earlier run ledgers in the checkout (a file or a folder of *.jsonl, e.g. kept in the repository; `:`-separated) the report job reads: a failing test already failing on the base branch is noted as known flaky there. Every run''s own is the flakiness-ledger artifact'
            cand --compare 'Also run each batch of a pull request on REF (as the plan job''s checkout names it, e.g. origin/main) in jobs of their own, and compare each test in the report job (fixed, not shown, same or worse); the report job keeps flakiness-comparison.json'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand --exit-code 'Fail the report job with the report''s exit code (1 a selected test failed, 3 no trustworthy result) on every pull request; default: report, don''t block. With --blocking-labels: only labelled pull requests, only proven flakiness'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'gradle-flaky;github;run'= {
            cand --batch 'The batch to run: the matrix entry''s `batch`, an index into the plan'
            cand --plan 'The plan written by `pr --target github` or `manual --target github`'
            cand --out 'Where the status file and the batch''s JUnit XML are put (must be empty), to upload'
            cand --timeout 'Stop the batch after DURATION (every process it started: SIGTERM, then SIGKILL); rc 124'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;github;analyze'= {
            cand --outcomes 'Where the outcomes JSON (one payload per batch job) is written'
            cand --sources 'The checkout, where failing tests'' sources are found for annotations'
            cand --blocking-labels 'Pull-request labels that opt in to blocking (comma-separated, exact and case-sensitive): on a PR carrying one, proven flakiness fails the report step; default: never block'
            cand --proven-exit-code 'The exit code of a blocked report step: 3 to 125, not 124 (required with --blocking-labels)'
            cand --ledger 'Earlier run ledgers (files, or folders of *.jsonl such as downloaded flakiness-ledger artifacts or a file kept in the repository; repeatable, or `:`-separated): a failing test already failing on the pull request''s base branch is noted as known flaky there'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand --exit-code 'Exit with the report''s exit code (1 a selected test failed, 3 no trustworthy result) instead of 0. With --blocking-labels: only on a labelled pull request, only for proven flakiness'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;github;help'= {
            cand workflow 'Print a GitHub Actions workflow that runs the flakiness check (plan, a matrix of batches, the report)'
            cand run 'Run one batch of the plan (a matrix job): record rc, duration and heap dumps, keep its XML, always exit 0'
            cand analyze 'The report job: each batch''s outcome, the report in the job summary, annotations, flakiness-outcomes.json'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'gradle-flaky;github;help;workflow'= {
        }
        &'gradle-flaky;github;help;run'= {
        }
        &'gradle-flaky;github;help;analyze'= {
        }
        &'gradle-flaky;github;help;help'= {
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
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;history'= {
            cand --ledger 'Also read this ledger: a file, or a folder whose *.jsonl files are read at any depth (a downloaded CI artifact, a file kept in the repository). Repeatable'
            cand --format 'Output format on stdout (html: one self-contained page)'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'gradle-flaky;record'= {
            cand --commit 'The commit the build ran [default: $BUILDKITE_COMMIT, $GITHUB_SHA, else the checkout''s HEAD]'
            cand --branch 'The branch the build ran [default: $BUILDKITE_BRANCH, $GITHUB_HEAD_REF or $GITHUB_REF_NAME, else the checkout''s]'
            cand --run-id 'The build''s id, the key that records it once [default: Buildkite''s job, GitHub''s run, attempt and job with the reports'' digest, else the reports'' digest]'
            cand --ledger 'Where to append: a ledger folder (rotated as the build''s own) or a .jsonl file [default: flakiness-ledger.jsonl in the project dir on Buildkite or GitHub Actions, else the build''s own ledger, <project dir>/.gradle/gradle-flaky/ledger/]'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;suspects'= {
            cand --ledger 'Also read this ledger: a file, or a folder whose *.jsonl files are read at any depth (a downloaded CI artifact, a file kept in the repository). Repeatable'
            cand --branch 'Only the runs of this branch'
            cand --since 'Only the runs since TIME (RFC 3339), or for the last DURATION (30d, 2weeks)'
            cand --format 'Output format on stdout (html: one self-contained page with each suspect''s history)'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'gradle-flaky;repeat'= {
            cand --times 'How many times to run the command'
            cand --timeout 'Stop an iteration that runs longer than this (its build and test JVMs, never your daemon), and end the loop'
            cand --task-outcomes 'Write each iteration''s task outcomes to DIR/iter-<i>.json (a Buildkite batch reads them)'
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;layout'= {
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand --refresh 'Ask Gradle again instead of using the cache'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;man'= {
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;completions'= {
            cand --project-dir 'Root of the Gradle build (where settings.gradle is)'
            cand --gradle 'Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH'
            cand --layout-timeout 'Stop reading the build''s layout (Gradle configuring the build with the init script) after DURATION (90s, 20m, 1h)'
            cand -v 'Stream Gradle''s output instead of showing progress'
            cand --verbose 'Stream Gradle''s output instead of showing progress'
            cand --isolate 'Run Gradle isolated from your own builds: a private daemon in the run folder (or --no-daemon for a single invocation), stopped with the run. Default: your own Gradle daemon, as ./gradlew would use (warm; a stopped build''s test JVMs are stopped, the daemon never). Buildkite batch steps always run isolated'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gradle-flaky;help'= {
            cand local 'Select, plan and run tests on this machine, then print the report'
            cand bisect 'Find the commit that made a test flaky: bisect the first-parent line between a good and a bad commit, each point run as often as an exact test needs'
            cand plan 'Show what would run, and what a clean result would prove; run nothing'
            cand pr 'Changed tests and unmutes of this branch, run here, uploaded to Buildkite, or planned for GitHub Actions'
            cand manual 'CI entry driven by FLAKINESS_* variables (the manual Buildkite pipeline or GitHub workflow)'
            cand analyze 'Read JUnit XML under DIR and print the flakiness report'
            cand buildkite 'Buildkite: upload the sub-pipeline, wrap a batch, or run the final analyze step'
            cand github 'GitHub Actions: print the workflow, run one matrix batch, or write the report job''s summary'
            cand triage 'Replay the failing tests of a finished run and say what kind of flaky each one is'
            cand history 'Show what the run ledger holds of tests: rates by commit and condition, trend, the newest commit against its first-parent ancestors'
            cand record 'Add an ordinary build''s test results to the run ledger: each test once, in its whole task'
            cand suspects 'Tell flaky from broken from the ledger''s runs, with nothing re-run; show tests that fail together'
            cand repeat 'Run one Gradle invocation N times, keeping every iteration''s JUnit XML'
            cand layout 'Print the build as Gradle sees it (projects, source sets, test tasks) as JSON'
            cand man 'Print the man page (roff) to stdout'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'gradle-flaky;help;local'= {
        }
        &'gradle-flaky;help;bisect'= {
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
            cand wrap 'Run a batch (through the repetition engine) or a command, record how it ended in a status file, always exit 0'
            cand analyze 'The final step: derive each job''s outcome, upload flakiness-outcomes.json, annotate'
            cand triage 'The triage step (with --triage / FLAKINESS_TRIAGE): replay the failing tests, annotate'
        }
        &'gradle-flaky;help;buildkite;upload'= {
        }
        &'gradle-flaky;help;buildkite;wrap'= {
        }
        &'gradle-flaky;help;buildkite;analyze'= {
        }
        &'gradle-flaky;help;buildkite;triage'= {
        }
        &'gradle-flaky;help;github'= {
            cand workflow 'Print a GitHub Actions workflow that runs the flakiness check (plan, a matrix of batches, the report)'
            cand run 'Run one batch of the plan (a matrix job): record rc, duration and heap dumps, keep its XML, always exit 0'
            cand analyze 'The report job: each batch''s outcome, the report in the job summary, annotations, flakiness-outcomes.json'
        }
        &'gradle-flaky;help;github;workflow'= {
        }
        &'gradle-flaky;help;github;run'= {
        }
        &'gradle-flaky;help;github;analyze'= {
        }
        &'gradle-flaky;help;triage'= {
        }
        &'gradle-flaky;help;history'= {
        }
        &'gradle-flaky;help;record'= {
        }
        &'gradle-flaky;help;suspects'= {
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
