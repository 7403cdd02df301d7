#!/usr/bin/env zsh
# Completes a command line in a real interactive zsh and prints each match as
# `match:<word>`: zsh completes only inside its line editor, so an inner zsh
# runs on a pseudo-terminal (zsh/zpty), the line is typed and TAB pressed.
# The completion system runs as it would for a user; only the final `compadd`
# is wrapped to also print what it adds.
#
# usage: zsh-complete.zsh COMPLETIONS_DIR 'gradle-flaky local --it'
emulate -L zsh
zmodload zsh/zpty || { print -u2 'zsh/zpty is missing'; exit 2 }
dir=$1 line=$2

setup=$(mktemp)
cat > $setup <<SETUP
PROMPT='' RPROMPT=''
fpath=(${(q)dir} \$fpath)
autoload -U compinit && compinit -u -D
bindkey '^I' complete-word
zstyle ':completion:*' insert-tab false
compadd() {
  # A call that only fills an array (-A, -O, -D) adds nothing to show.
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then
    builtin compadd "\$@"; return
  fi
  local -a hits
  builtin compadd -A hits "\$@"
  local h; for h in \$hits; do print -r -- "match:\$h"; done
  builtin compadd "\$@"
}
finish() { print -r -- 'completion-done'; exit }
comppostfuncs=(finish)
print -r -- 'setup-done'
SETUP

zpty z zsh -f -i
zpty -w z "source ${(q)setup}"
local out
while zpty -r z out; do [[ $out == *setup-done* ]] && break; done
zpty -w -n z "$line"$'\t'
while zpty -r z out; do
  out=${out%$'\r'}
  out=${out%$'\n'}
  out=${out%$'\r'}
  # The typed line and terminal controls come first on the same line.
  [[ $out == *completion-done* ]] && break
  [[ $out == *match:* ]] && print -r -- "match:${out#*match:}"
done
zpty -d z
rm -f $setup
