/**
 * The shell-integration scripts, one per shell (docs/shell-integration.md). Each is sourced once by
 * an interactive shell and makes it print semantic-prompt marks (OSC 133) that terminals draw
 * nothing for but tmux's %output carries: `C` when a command starts, `D;<status>` when it ends,
 * `A` when the prompt is drawn, each with `tmcp=<nonce>.<n>` (the shell's nonce and the number of
 * its command), so run_shell_command/run_command read a command's start, end and status without
 * typing anything around it. Lines typed with a leading space (how this server types) are kept out
 * of history and leave their end in the pane option @tmux_mcp_end, read when a flood holds the
 * stream back. The first argument (or $__TMCP_NONCE) is the nonce; the second, when given, is how
 * many rows the line that sourced the script took on screen: they are erased (a found pane).
 * At its first prompt the shell announces itself in the pane option @tmux_mcp_shell ("<pid> <shell> <nonce>").
 */

/** A script as written: template literals cannot hold a shell's `${`, so it is written `\\${` and restored here. */
function script(strings: TemplateStringsArray): string {
  return strings.raw.join('').replaceAll('\\${', '${');
}

export const BASH = script`# tmux-mcp shell integration (bash): semantic-prompt marks; docs/shell-integration.md
if [[ $- == *i* && -z \${TMUX_MCP_NO_INTEGRATION-} ]]; then
__tmcp_nonce=\${1:-\${__TMCP_NONCE:-$$x$RANDOM$RANDOM}}
builtin unset __TMCP_NONCE
__tmcp_n=0 __tmcp_ran=0 __tmcp_hist=
# In the background (a subshell's job: no job message), so the prompt does not wait for tmux.
__tmcp_end() {
  [[ -n \${TMUX_PANE-} ]] && (command tmux set-option -p -t "$TMUX_PANE" -F @tmux_mcp_end "$__tmcp_nonce.$__tmcp_n $1 #{history_size} #{cursor_y}" >/dev/null 2>&1 &)
}
__tmcp_precmd() {
  local s=$? h
  if (( __tmcp_ran )); then
    __tmcp_ran=0
    builtin printf '\e]133;D;%s;tmcp=%s.%s\a' "$s" "$__tmcp_nonce" "$__tmcp_n"
    h=$(HISTTIMEFORMAT= builtin history 1)
    # A line typed with a leading space (as tmux-mcp types) leaves history; one history kept no entry of did too.
    if [[ $h =~ ^\ *[0-9]+\*?\ \ \  ]]; then
      builtin history -d -1 2>/dev/null # the newest entry is again the one seen last time
      __tmcp_end "$s"
    elif [[ $h == "$__tmcp_hist" ]]; then
      __tmcp_end "$s"
    else
      __tmcp_hist=$h
    fi
  fi
  # At the first prompt the shell announces itself: from here on it reads commands.
  if [[ -z \${__tmcp_announced-} ]]; then
    __tmcp_announced=1
    [[ -n \${TMUX_PANE-} ]] && command tmux set-option -p -t "$TMUX_PANE" @tmux_mcp_shell "$$ bash $__tmcp_nonce" 2>/dev/null
  fi
  builtin printf '\e]133;A;tmcp=%s.%s;s=%s\a' "$__tmcp_nonce" "$__tmcp_n" "$s"
  return $s
}
PS0=\${PS0-}'\${__tmcp_none[__tmcp_ran=1,__tmcp_n+=1]-}\e]133;C;tmcp='$__tmcp_nonce'.\${__tmcp_n}\a'
if [[ $(builtin declare -p PROMPT_COMMAND 2>/dev/null) == "declare -a"* ]]; then
  PROMPT_COMMAND=(__tmcp_precmd "\${PROMPT_COMMAND[@]}")
else
  PROMPT_COMMAND=__tmcp_precmd\${PROMPT_COMMAND:+$'\n'$PROMPT_COMMAND}
fi
__tmcp_hist=$(HISTTIMEFORMAT= builtin history 1)
if [[ -n \${2-} ]]; then
  # Sourced by a typed line: forget it and erase its rows.
  [[ $__tmcp_hist =~ ^\ *[0-9]+\*?\ \ \  ]] && builtin history -d -1 2>/dev/null && __tmcp_hist=$(HISTTIMEFORMAT= builtin history 1)
  builtin printf '\e[%sA\r\e[J' "$2"
fi
fi
`;

export const ZSH = script`# tmux-mcp shell integration (zsh): semantic-prompt marks; docs/shell-integration.md
if [[ -o interactive && -z \${TMUX_MCP_NO_INTEGRATION-} ]]; then
typeset -g __tmcp_nonce=\${1:-\${__TMCP_NONCE:-$$x$RANDOM$RANDOM}}
unset __TMCP_NONCE
typeset -gi __tmcp_n=0 __tmcp_ran=0 __tmcp_flag=0
# In the background (a subshell's job: no job message), so the prompt does not wait for tmux.
__tmcp_end() {
  [[ -n \${TMUX_PANE-} ]] && (command tmux set-option -p -t "$TMUX_PANE" -F @tmux_mcp_end "$__tmcp_nonce.$__tmcp_n $1 #{history_size} #{cursor_y}" >/dev/null 2>&1 &)
}
__tmcp_preexec() {
  __tmcp_n+=1
  __tmcp_ran=1
  if [[ $1 == ' '* ]]; then __tmcp_flag=1; else __tmcp_flag=0; fi
  builtin printf '\e]133;C;tmcp=%s.%s\a' "$__tmcp_nonce" "$__tmcp_n"
}
__tmcp_precmd() {
  local s=$?
  if (( __tmcp_ran )); then
    __tmcp_ran=0
    builtin printf '\e]133;D;%s;tmcp=%s.%s\a' "$s" "$__tmcp_nonce" "$__tmcp_n"
    (( __tmcp_flag )) && __tmcp_end "$s"
  fi
  # At the first prompt the shell announces itself: from here on it reads commands.
  if [[ -z \${__tmcp_announced-} ]]; then
    typeset -g __tmcp_announced=1
    [[ -n \${TMUX_PANE-} ]] && command tmux set-option -p -t "$TMUX_PANE" @tmux_mcp_shell "$$ zsh $__tmcp_nonce" 2>/dev/null
  fi
  builtin printf '\e]133;A;tmcp=%s.%s;s=%s\a' "$__tmcp_nonce" "$__tmcp_n" "$s"
  # zsh runs a precmd function before the hooks: moved behind this one, what it prints follows the command's end.
  if (( \${+functions[precmd]} )); then
    functions[__tmcp_user_precmd]=$functions[precmd]
    unfunction precmd
    precmd_functions=(\${precmd_functions:#__tmcp_user_precmd} __tmcp_user_precmd)
  fi
  [[ $precmd_functions[1] == __tmcp_precmd ]] || precmd_functions=(__tmcp_precmd \${precmd_functions:#__tmcp_precmd})
  return $s
}
# A line typed with a leading space (as tmux-mcp types) stays out of history.
__tmcp_addhistory() { [[ $1 != ' '* ]] }
autoload -Uz add-zsh-hook
add-zsh-hook preexec __tmcp_preexec
add-zsh-hook zshaddhistory __tmcp_addhistory
# First among the precmd hooks, so it reads the command's own status.
precmd_functions=(__tmcp_precmd \${precmd_functions:#__tmcp_precmd})
if [[ -n \${2-} ]]; then
  builtin printf '\e[%sA\r\e[J' "$2"
fi
fi
`;

export const FISH = script`# tmux-mcp shell integration (fish): semantic-prompt marks; docs/shell-integration.md
if status is-interactive; and test -z "$TMUX_MCP_NO_INTEGRATION"
set -g __tmcp_nonce $argv[1]
test -n "$__tmcp_nonce"; or set -g __tmcp_nonce $__TMCP_NONCE
test -n "$__tmcp_nonce"; or set -g __tmcp_nonce $fish_pid"x"(random)(random)
set -e __TMCP_NONCE
set -g __tmcp_n 0
set -g __tmcp_ran 0
set -g __tmcp_flag 0
function __tmcp_preexec --on-event fish_preexec
  set -g __tmcp_n (math $__tmcp_n + 1)
  set -g __tmcp_ran 1
  if string match -q -- ' *' "$argv[1]"; set -g __tmcp_flag 1; else; set -g __tmcp_flag 0; end
  builtin printf '\e]133;C;tmcp=%s.%s\a' $__tmcp_nonce $__tmcp_n
end
function __tmcp_postexec --on-event fish_postexec
  set -l s $status
  set -g __tmcp_ran 0
  builtin printf '\e]133;D;%s;tmcp=%s.%s\a' $s $__tmcp_nonce $__tmcp_n
  if test $__tmcp_flag = 1; and set -q TMUX_PANE
    # In the background, disowned (no job message), so the prompt does not wait for tmux.
    command tmux set-option -p -t $TMUX_PANE -F @tmux_mcp_end "$__tmcp_nonce.$__tmcp_n $s #{history_size} #{cursor_y}" >/dev/null 2>&1 &
    disown $last_pid 2>/dev/null
  end
end
function __tmcp_prompt --on-event fish_prompt
  set -l s $status
  # At the first prompt the shell announces itself: from here on it reads commands.
  if not set -q __tmcp_announced
    set -g __tmcp_announced 1
    set -q TMUX_PANE; and command tmux set-option -p -t $TMUX_PANE @tmux_mcp_shell "$fish_pid fish $__tmcp_nonce" 2>/dev/null
  end
  builtin printf '\e]133;A;tmcp=%s.%s;s=%s\a' $__tmcp_nonce $__tmcp_n $s
end
if test -n "$argv[2]"
  builtin printf '\e[%sA\r\e[J' $argv[2]
end
end
`;
