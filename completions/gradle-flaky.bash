_gradle__flaky() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="gradle__flaky"
                ;;
            gradle__flaky,analyze)
                cmd="gradle__flaky__subcmd__analyze"
                ;;
            gradle__flaky,bisect)
                cmd="gradle__flaky__subcmd__bisect"
                ;;
            gradle__flaky,buildkite)
                cmd="gradle__flaky__subcmd__buildkite"
                ;;
            gradle__flaky,completions)
                cmd="gradle__flaky__subcmd__completions"
                ;;
            gradle__flaky,github)
                cmd="gradle__flaky__subcmd__github"
                ;;
            gradle__flaky,help)
                cmd="gradle__flaky__subcmd__help"
                ;;
            gradle__flaky,history)
                cmd="gradle__flaky__subcmd__history"
                ;;
            gradle__flaky,layout)
                cmd="gradle__flaky__subcmd__layout"
                ;;
            gradle__flaky,local)
                cmd="gradle__flaky__subcmd__local"
                ;;
            gradle__flaky,man)
                cmd="gradle__flaky__subcmd__man"
                ;;
            gradle__flaky,manual)
                cmd="gradle__flaky__subcmd__manual"
                ;;
            gradle__flaky,plan)
                cmd="gradle__flaky__subcmd__plan"
                ;;
            gradle__flaky,pr)
                cmd="gradle__flaky__subcmd__pr"
                ;;
            gradle__flaky,record)
                cmd="gradle__flaky__subcmd__record"
                ;;
            gradle__flaky,repeat)
                cmd="gradle__flaky__subcmd__repeat"
                ;;
            gradle__flaky,suspects)
                cmd="gradle__flaky__subcmd__suspects"
                ;;
            gradle__flaky,triage)
                cmd="gradle__flaky__subcmd__triage"
                ;;
            gradle__flaky__subcmd__buildkite,analyze)
                cmd="gradle__flaky__subcmd__buildkite__subcmd__analyze"
                ;;
            gradle__flaky__subcmd__buildkite,help)
                cmd="gradle__flaky__subcmd__buildkite__subcmd__help"
                ;;
            gradle__flaky__subcmd__buildkite,triage)
                cmd="gradle__flaky__subcmd__buildkite__subcmd__triage"
                ;;
            gradle__flaky__subcmd__buildkite,upload)
                cmd="gradle__flaky__subcmd__buildkite__subcmd__upload"
                ;;
            gradle__flaky__subcmd__buildkite,wrap)
                cmd="gradle__flaky__subcmd__buildkite__subcmd__wrap"
                ;;
            gradle__flaky__subcmd__buildkite__subcmd__help,analyze)
                cmd="gradle__flaky__subcmd__buildkite__subcmd__help__subcmd__analyze"
                ;;
            gradle__flaky__subcmd__buildkite__subcmd__help,help)
                cmd="gradle__flaky__subcmd__buildkite__subcmd__help__subcmd__help"
                ;;
            gradle__flaky__subcmd__buildkite__subcmd__help,triage)
                cmd="gradle__flaky__subcmd__buildkite__subcmd__help__subcmd__triage"
                ;;
            gradle__flaky__subcmd__buildkite__subcmd__help,upload)
                cmd="gradle__flaky__subcmd__buildkite__subcmd__help__subcmd__upload"
                ;;
            gradle__flaky__subcmd__buildkite__subcmd__help,wrap)
                cmd="gradle__flaky__subcmd__buildkite__subcmd__help__subcmd__wrap"
                ;;
            gradle__flaky__subcmd__github,analyze)
                cmd="gradle__flaky__subcmd__github__subcmd__analyze"
                ;;
            gradle__flaky__subcmd__github,help)
                cmd="gradle__flaky__subcmd__github__subcmd__help"
                ;;
            gradle__flaky__subcmd__github,run)
                cmd="gradle__flaky__subcmd__github__subcmd__run"
                ;;
            gradle__flaky__subcmd__github,workflow)
                cmd="gradle__flaky__subcmd__github__subcmd__workflow"
                ;;
            gradle__flaky__subcmd__github__subcmd__help,analyze)
                cmd="gradle__flaky__subcmd__github__subcmd__help__subcmd__analyze"
                ;;
            gradle__flaky__subcmd__github__subcmd__help,help)
                cmd="gradle__flaky__subcmd__github__subcmd__help__subcmd__help"
                ;;
            gradle__flaky__subcmd__github__subcmd__help,run)
                cmd="gradle__flaky__subcmd__github__subcmd__help__subcmd__run"
                ;;
            gradle__flaky__subcmd__github__subcmd__help,workflow)
                cmd="gradle__flaky__subcmd__github__subcmd__help__subcmd__workflow"
                ;;
            gradle__flaky__subcmd__help,analyze)
                cmd="gradle__flaky__subcmd__help__subcmd__analyze"
                ;;
            gradle__flaky__subcmd__help,bisect)
                cmd="gradle__flaky__subcmd__help__subcmd__bisect"
                ;;
            gradle__flaky__subcmd__help,buildkite)
                cmd="gradle__flaky__subcmd__help__subcmd__buildkite"
                ;;
            gradle__flaky__subcmd__help,completions)
                cmd="gradle__flaky__subcmd__help__subcmd__completions"
                ;;
            gradle__flaky__subcmd__help,github)
                cmd="gradle__flaky__subcmd__help__subcmd__github"
                ;;
            gradle__flaky__subcmd__help,help)
                cmd="gradle__flaky__subcmd__help__subcmd__help"
                ;;
            gradle__flaky__subcmd__help,history)
                cmd="gradle__flaky__subcmd__help__subcmd__history"
                ;;
            gradle__flaky__subcmd__help,layout)
                cmd="gradle__flaky__subcmd__help__subcmd__layout"
                ;;
            gradle__flaky__subcmd__help,local)
                cmd="gradle__flaky__subcmd__help__subcmd__local"
                ;;
            gradle__flaky__subcmd__help,man)
                cmd="gradle__flaky__subcmd__help__subcmd__man"
                ;;
            gradle__flaky__subcmd__help,manual)
                cmd="gradle__flaky__subcmd__help__subcmd__manual"
                ;;
            gradle__flaky__subcmd__help,plan)
                cmd="gradle__flaky__subcmd__help__subcmd__plan"
                ;;
            gradle__flaky__subcmd__help,pr)
                cmd="gradle__flaky__subcmd__help__subcmd__pr"
                ;;
            gradle__flaky__subcmd__help,record)
                cmd="gradle__flaky__subcmd__help__subcmd__record"
                ;;
            gradle__flaky__subcmd__help,repeat)
                cmd="gradle__flaky__subcmd__help__subcmd__repeat"
                ;;
            gradle__flaky__subcmd__help,suspects)
                cmd="gradle__flaky__subcmd__help__subcmd__suspects"
                ;;
            gradle__flaky__subcmd__help,triage)
                cmd="gradle__flaky__subcmd__help__subcmd__triage"
                ;;
            gradle__flaky__subcmd__help__subcmd__buildkite,analyze)
                cmd="gradle__flaky__subcmd__help__subcmd__buildkite__subcmd__analyze"
                ;;
            gradle__flaky__subcmd__help__subcmd__buildkite,triage)
                cmd="gradle__flaky__subcmd__help__subcmd__buildkite__subcmd__triage"
                ;;
            gradle__flaky__subcmd__help__subcmd__buildkite,upload)
                cmd="gradle__flaky__subcmd__help__subcmd__buildkite__subcmd__upload"
                ;;
            gradle__flaky__subcmd__help__subcmd__buildkite,wrap)
                cmd="gradle__flaky__subcmd__help__subcmd__buildkite__subcmd__wrap"
                ;;
            gradle__flaky__subcmd__help__subcmd__github,analyze)
                cmd="gradle__flaky__subcmd__help__subcmd__github__subcmd__analyze"
                ;;
            gradle__flaky__subcmd__help__subcmd__github,run)
                cmd="gradle__flaky__subcmd__help__subcmd__github__subcmd__run"
                ;;
            gradle__flaky__subcmd__help__subcmd__github,workflow)
                cmd="gradle__flaky__subcmd__help__subcmd__github__subcmd__workflow"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        gradle__flaky)
            opts="-v -h -V --project-dir --gradle --verbose --isolate --layout-timeout --help --version local bisect plan pr manual analyze buildkite github triage history record suspects repeat layout man completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__analyze)
            opts="-v -h --since --format --report --junit --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "markdown json" -- "${cur}"))
                    return 0
                    ;;
                --report)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --junit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__bisect)
            opts="-v -h --good --bad --max-runs --error-rate --changed --unmuted --base --muted-file --refresh-layout --task-cap --subclass-cap --allow-host-mutating-tasks --iters --unit-iters --integ-iters --rest-iters --suite-timeout --repetition --context --unmute-check --sample-seed --cap --detect-rate --confidence --budget --durations --max-shards --ledger --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --good)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --bad)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-runs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --error-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --muted-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --task-cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --subclass-cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --unit-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --integ-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rest-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --suite-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --repetition)
                    COMPREPLY=($(compgen -W "auto in-jvm gradle-runs" -- "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -W "alone task both" -- "${cur}"))
                    return 0
                    ;;
                --unmute-check)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sample-seed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --detect-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confidence)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --budget)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --durations)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-shards)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ledger)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__buildkite)
            opts="-v -h --project-dir --gradle --verbose --isolate --layout-timeout --help upload wrap analyze triage help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__buildkite__subcmd__analyze)
            opts="-v -h --work-dir --ledger --learned-build --blocking-labels --proven-exit-code --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --work-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ledger)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --learned-build)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --blocking-labels)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --proven-exit-code)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__buildkite__subcmd__help)
            opts="upload wrap analyze triage help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__buildkite__subcmd__help__subcmd__analyze)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__buildkite__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__buildkite__subcmd__help__subcmd__triage)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__buildkite__subcmd__help__subcmd__upload)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__buildkite__subcmd__help__subcmd__wrap)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__buildkite__subcmd__triage)
            opts="-v -h --work-dir --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --work-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__buildkite__subcmd__upload)
            opts="-v -h --changed --unmuted --base --muted-file --refresh-layout --task-cap --subclass-cap --allow-host-mutating-tasks --iters --unit-iters --integ-iters --rest-iters --suite-timeout --repetition --context --unmute-check --sample-seed --cap --detect-rate --confidence --budget --durations --max-shards --agent --step-timeout --agent-bin --group --blocking-labels --proven-exit-code --triage --triage-budget --triage-timeout --compare --stop-on-flaky --no-stop-on-flaky --learned --learned-build --dry-run --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --muted-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --task-cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --subclass-cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --unit-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --integ-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rest-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --suite-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --repetition)
                    COMPREPLY=($(compgen -W "auto in-jvm gradle-runs" -- "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -W "alone task both" -- "${cur}"))
                    return 0
                    ;;
                --unmute-check)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sample-seed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --detect-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confidence)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --budget)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --durations)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-shards)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --step-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent-bin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --group)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --blocking-labels)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --proven-exit-code)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --triage)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --triage-budget)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --triage-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compare)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --stop-on-flaky)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --learned)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --learned-build)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__buildkite__subcmd__wrap)
            opts="-v -h --status-dir --kind --timeout --from-env --pass-exit-code --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --status-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kind)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pass-exit-code)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__completions)
            opts="-v -h --project-dir --gradle --verbose --isolate --layout-timeout --help bash zsh fish powershell elvish"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__github)
            opts="-v -h --project-dir --gradle --verbose --isolate --layout-timeout --help workflow run analyze help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__github__subcmd__analyze)
            opts="-v -h --outcomes --sources --exit-code --blocking-labels --proven-exit-code --ledger --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --outcomes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sources)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --blocking-labels)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --proven-exit-code)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ledger)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__github__subcmd__help)
            opts="workflow run analyze help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__github__subcmd__help__subcmd__analyze)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__github__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__github__subcmd__help__subcmd__run)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__github__subcmd__help__subcmd__workflow)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__github__subcmd__run)
            opts="-v -h --batch --plan --out --timeout --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --batch)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --plan)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__github__subcmd__workflow)
            opts="-v -h --on --iters --unit-iters --integ-iters --rest-iters --suite-timeout --repetition --context --unmute-check --sample-seed --cap --detect-rate --confidence --budget --durations --max-shards --muted-file --runs-on --java --java-distribution --gradle-version --job-timeout --install --exit-code --blocking-labels --proven-exit-code --ledger --compare --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --on)
                    COMPREPLY=($(compgen -W "pull-request manual" -- "${cur}"))
                    return 0
                    ;;
                --iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --unit-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --integ-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rest-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --suite-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --repetition)
                    COMPREPLY=($(compgen -W "auto in-jvm gradle-runs" -- "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -W "alone task both" -- "${cur}"))
                    return 0
                    ;;
                --unmute-check)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sample-seed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --detect-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confidence)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --budget)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --durations)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-shards)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --muted-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --runs-on)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --java)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --java-distribution)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle-version)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --job-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --install)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --blocking-labels)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --proven-exit-code)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ledger)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compare)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help)
            opts="local bisect plan pr manual analyze buildkite github triage history record suspects repeat layout man completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__analyze)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__bisect)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__buildkite)
            opts="upload wrap analyze triage"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__buildkite__subcmd__analyze)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__buildkite__subcmd__triage)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__buildkite__subcmd__upload)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__buildkite__subcmd__wrap)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__github)
            opts="workflow run analyze"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__github__subcmd__analyze)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__github__subcmd__run)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__github__subcmd__workflow)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__history)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__layout)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__local)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__man)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__manual)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__plan)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__pr)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__record)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__repeat)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__suspects)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__help__subcmd__triage)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__history)
            opts="-v -h --ledger --format --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ledger)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "markdown json html" -- "${cur}"))
                    return 0
                    ;;
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__layout)
            opts="-v -h --refresh --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__local)
            opts="-v -h --changed --unmuted --base --muted-file --refresh-layout --task-cap --subclass-cap --allow-host-mutating-tasks --iters --unit-iters --integ-iters --rest-iters --suite-timeout --repetition --context --unmute-check --sample-seed --cap --detect-rate --confidence --budget --durations --max-shards --format --report --junit --triage --triage-budget --triage-timeout --stop-on-flaky --no-stop-on-flaky --until-fail --for --batch-timeout --compare --looks --size-after --ledger --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --muted-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --task-cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --subclass-cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --unit-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --integ-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rest-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --suite-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --repetition)
                    COMPREPLY=($(compgen -W "auto in-jvm gradle-runs" -- "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -W "alone task both" -- "${cur}"))
                    return 0
                    ;;
                --unmute-check)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sample-seed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --detect-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confidence)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --budget)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --durations)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-shards)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "markdown json" -- "${cur}"))
                    return 0
                    ;;
                --report)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --junit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --triage)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --triage-budget)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --triage-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --stop-on-flaky)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --for)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --batch-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compare)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --looks)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ledger)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__man)
            opts="-v -h --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__manual)
            opts="-v -h --task-cap --subclass-cap --allow-host-mutating-tasks --iters --unit-iters --integ-iters --rest-iters --suite-timeout --repetition --context --unmute-check --sample-seed --cap --detect-rate --confidence --budget --durations --max-shards --agent --step-timeout --agent-bin --group --blocking-labels --proven-exit-code --triage --triage-budget --triage-timeout --compare --stop-on-flaky --no-stop-on-flaky --learned --learned-build --target --dry-run --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --task-cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --subclass-cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --unit-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --integ-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rest-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --suite-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --repetition)
                    COMPREPLY=($(compgen -W "auto in-jvm gradle-runs" -- "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -W "alone task both" -- "${cur}"))
                    return 0
                    ;;
                --unmute-check)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sample-seed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --detect-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confidence)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --budget)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --durations)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-shards)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --step-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent-bin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --group)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --blocking-labels)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --proven-exit-code)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --triage)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --triage-budget)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --triage-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compare)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --stop-on-flaky)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --learned)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --learned-build)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --target)
                    COMPREPLY=($(compgen -W "local buildkite github" -- "${cur}"))
                    return 0
                    ;;
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__plan)
            opts="-v -h --changed --unmuted --base --muted-file --refresh-layout --task-cap --subclass-cap --allow-host-mutating-tasks --iters --unit-iters --integ-iters --rest-iters --suite-timeout --repetition --context --unmute-check --sample-seed --cap --detect-rate --confidence --budget --durations --max-shards --stop-on-flaky --no-stop-on-flaky --until-fail --for --batch-timeout --format --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --muted-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --task-cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --subclass-cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --unit-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --integ-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rest-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --suite-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --repetition)
                    COMPREPLY=($(compgen -W "auto in-jvm gradle-runs" -- "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -W "alone task both" -- "${cur}"))
                    return 0
                    ;;
                --unmute-check)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sample-seed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --detect-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confidence)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --budget)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --durations)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-shards)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --stop-on-flaky)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --for)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --batch-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json shell" -- "${cur}"))
                    return 0
                    ;;
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__pr)
            opts="-v -h --base --target --muted-file --task-cap --subclass-cap --allow-host-mutating-tasks --iters --unit-iters --integ-iters --rest-iters --suite-timeout --repetition --context --unmute-check --sample-seed --cap --detect-rate --confidence --budget --durations --max-shards --format --report --junit --agent --step-timeout --agent-bin --group --blocking-labels --proven-exit-code --triage --triage-budget --triage-timeout --stop-on-flaky --no-stop-on-flaky --batch-timeout --dry-run --compare --learned --learned-build --ledger --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --target)
                    COMPREPLY=($(compgen -W "local buildkite github" -- "${cur}"))
                    return 0
                    ;;
                --muted-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --task-cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --subclass-cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --unit-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --integ-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rest-iters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --suite-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --repetition)
                    COMPREPLY=($(compgen -W "auto in-jvm gradle-runs" -- "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -W "alone task both" -- "${cur}"))
                    return 0
                    ;;
                --unmute-check)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sample-seed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --detect-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confidence)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --budget)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --durations)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-shards)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "markdown json" -- "${cur}"))
                    return 0
                    ;;
                --report)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --junit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --step-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent-bin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --group)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --blocking-labels)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --proven-exit-code)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --triage)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --triage-budget)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --triage-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --stop-on-flaky)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --batch-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compare)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --learned)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --learned-build)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ledger)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__record)
            opts="-v -h --commit --branch --run-id --ledger --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --commit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --branch)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --run-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ledger)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__repeat)
            opts="-v -h --times --timeout --task-outcomes --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --times)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --task-outcomes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__suspects)
            opts="-v -h --ledger --branch --since --format --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ledger)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --branch)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "markdown json html" -- "${cur}"))
                    return 0
                    ;;
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gradle__flaky__subcmd__triage)
            opts="-v -h --replays --triage-budget --triage-timeout --format --report --junit --project-dir --gradle --verbose --isolate --layout-timeout --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --replays)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --triage-budget)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --triage-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "markdown json" -- "${cur}"))
                    return 0
                    ;;
                --report)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --junit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gradle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layout-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _gradle__flaky -o nosort -o bashdefault -o default gradle-flaky
else
    complete -F _gradle__flaky -o bashdefault -o default gradle-flaky
fi
