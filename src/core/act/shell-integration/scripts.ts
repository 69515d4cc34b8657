/**
 * The shell-integration scripts, one per shell (docs/shell-integration.md). Each is sourced once by
 * an interactive shell and makes it print semantic-prompt marks (OSC 133) that terminals draw
 * nothing for but tmux's %output carries: `C` when a command line starts, `D;<status>` when it
 * ends, `A` when the prompt is about to be drawn, each with `tmcp=<nonce>.<n>` (the shell's nonce
 * and the number of its command line). The server ends the lines it types with a key of its own
 * (ACCEPT_KEY) instead of Enter: the script notes the line's digest (POSIX cksum of the line without
 * blanks, `d=<crc>-<length>`) and accepts it, and the marks of that line carry the digest, so the
 * server knows its own line from anything else the shell reads (typed ahead, a person's, an empty
 * Enter). A line of the server's that ran nothing (a syntax error) is named by the next `A` (`r=`).
 * CLEAR_KEY empties the line (and leaves vi command mode). Lines typed with a leading space are kept
 * out of history; the server's lines leave their end in the pane option @tmux_mcp_end, read when a
 * flood holds the stream back, and signal the tmux channel `tmux-mcp-<nonce>-<n>` when the server
 * asked for it (pane option @tmux_mcp_wait, set when a call timed out on that line). The first
 * argument (or $__TMCP_NONCE) is the nonce; the second, when given, is how many rows the line that
 * sourced the script took on screen: they are erased (a found pane). At its first prompt the shell
 * announces itself in the pane option @tmux_mcp_shell ("<pid> <shell> <nonce>").
 */

/** The keys the server types after its line (accept, noting the digest) and before it (clear the line): sequences no terminal sends. */
export const ACCEPT_KEY = '\x1b[9999~';
export const CLEAR_KEY = '\x1b[9998~';

/** A script as written: template literals cannot hold a shell's `${`, so it is written `\\${` and restored here. */
function script(strings: TemplateStringsArray): string {
  return strings.raw.join('').replaceAll('\\${', '${');
}

export const BASH = script`# tmux-mcp shell integration (bash): semantic-prompt marks; docs/shell-integration.md
if [[ $- == *i* && -z \${TMUX_MCP_NO_INTEGRATION-} ]]; then
__tmcp_nonce=\${1:-\${__TMCP_NONCE:-$$x$RANDOM$RANDOM}}
builtin unset __TMCP_NONCE
__tmcp_n=0 __tmcp_ran=0 __tmcp_d= __tmcp_hist=
# In the background (a subshell's job: no job message), so the prompt does not wait for tmux.
__tmcp_end() {
  [[ -n \${TMUX_PANE-} ]] && (command tmux set-option -p -t "$TMUX_PANE" -F @tmux_mcp_end "$__tmcp_nonce.$__tmcp_n $1 #{history_size} #{cursor_y} $__tmcp_d" \; if-shell -F -t "$TMUX_PANE" "#{==:#{@tmux_mcp_wait},$__tmcp_nonce.$__tmcp_n}" "wait-for -S tmux-mcp-$__tmcp_nonce-$__tmcp_n" >/dev/null 2>&1 &)
}
# The server's key: note the line's digest; the key's macro then accepts the line.
__tmcp_accept() {
  __tmcp_d=$(builtin printf %s "\${READLINE_LINE//[$' \t\n']/}" | command cksum)
  __tmcp_d=\${__tmcp_d// /-}
}
__tmcp_clear() { READLINE_LINE= READLINE_POINT=0; }
for __tmcp_map in emacs vi-insert vi-command; do
  builtin bind -m $__tmcp_map -x '"\e[9997~": __tmcp_accept'
  builtin bind -m $__tmcp_map '"\e[9996~": accept-line'
  builtin bind -m $__tmcp_map '"\e[9999~": "\e[9997~\e[9996~"'
  builtin bind -m $__tmcp_map -x '"\e[9995~": __tmcp_clear'
done
builtin bind -m emacs '"\e[9998~": "\e[9995~"'
builtin bind -m vi-insert '"\e[9998~": "\e[9995~"'
builtin bind -m vi-command '"\e[9998~": "\e[9995~i"'
builtin unset __tmcp_map
__tmcp_precmd() {
  local s=$? h r=
  if (( __tmcp_ran )); then
    builtin printf '\e]133;D;%s;tmcp=%s.%s;d=%s\a' "$s" "$__tmcp_nonce" "$__tmcp_n" "$__tmcp_d"
  else
    r=$__tmcp_d
  fi
  if (( __tmcp_ran )) || [[ -n $__tmcp_d ]]; then
    __tmcp_ran=0
    h=$(HISTTIMEFORMAT= builtin history 1)
    # A line typed with a leading space (as tmux-mcp types) leaves history.
    if [[ $h =~ ^\ *[0-9]+\*?\ \ \  ]]; then
      builtin history -d -1 2>/dev/null # the newest entry is again the one seen last time
    elif [[ $h != "$__tmcp_hist" ]]; then
      __tmcp_hist=$h
    fi
    [[ -n $__tmcp_d ]] && __tmcp_end "$s"
  fi
  __tmcp_d=
  # At the first prompt the shell announces itself: from here on it reads commands.
  if [[ -z \${__tmcp_announced-} ]]; then
    __tmcp_announced=1
    [[ -n \${TMUX_PANE-} ]] && command tmux set-option -p -t "$TMUX_PANE" @tmux_mcp_shell "$$ bash $__tmcp_nonce" 2>/dev/null
  fi
  builtin printf '\e]133;A;tmcp=%s.%s;s=%s;r=%s\a' "$__tmcp_nonce" "$__tmcp_n" "$s" "$r"
  return $s
}
PS0=\${PS0-}'\${__tmcp_none[__tmcp_ran=1,__tmcp_n+=1]-}\e]133;C;tmcp='$__tmcp_nonce'.\${__tmcp_n};d=\${__tmcp_d}\a'
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
typeset -gi __tmcp_n=0 __tmcp_ran=0
typeset -g __tmcp_d=
# In the background (a subshell's job: no job message), so the prompt does not wait for tmux.
__tmcp_end() {
  [[ -n \${TMUX_PANE-} ]] && (command tmux set-option -p -t "$TMUX_PANE" -F @tmux_mcp_end "$__tmcp_nonce.$__tmcp_n $1 #{history_size} #{cursor_y} $__tmcp_d" \; if-shell -F -t "$TMUX_PANE" "#{==:#{@tmux_mcp_wait},$__tmcp_nonce.$__tmcp_n}" "wait-for -S tmux-mcp-$__tmcp_nonce-$__tmcp_n" >/dev/null 2>&1 &)
}
# The server's key: note the line's digest, then accept it as Enter would (through any plugin's wrapper).
__tmcp_accept() {
  __tmcp_d=$(builtin print -rn -- "\${BUFFER//[$' \t\n']/}" | command cksum)
  __tmcp_d=\${__tmcp_d// /-}
  zle accept-line
}
__tmcp_clear() {
  BUFFER= CURSOR=0
  [[ $KEYMAP == vicmd ]] && zle -K viins
  return 0
}
zle -N __tmcp_accept
zle -N __tmcp_clear
() {
  local map
  for map in emacs viins vicmd; do
    bindkey -M $map '\e[9999~' __tmcp_accept
    bindkey -M $map '\e[9998~' __tmcp_clear
  done
}
__tmcp_preexec() {
  __tmcp_n+=1
  __tmcp_ran=1
  builtin printf '\e]133;C;tmcp=%s.%s;d=%s\a' "$__tmcp_nonce" "$__tmcp_n" "$__tmcp_d"
}
__tmcp_precmd() {
  local s=$? r=
  if (( __tmcp_ran )); then
    __tmcp_ran=0
    builtin printf '\e]133;D;%s;tmcp=%s.%s;d=%s\a' "$s" "$__tmcp_nonce" "$__tmcp_n" "$__tmcp_d"
  else
    r=$__tmcp_d
  fi
  [[ -n $__tmcp_d ]] && __tmcp_end "$s"
  __tmcp_d=
  # At the first prompt the shell announces itself: from here on it reads commands.
  if [[ -z \${__tmcp_announced-} ]]; then
    typeset -g __tmcp_announced=1
    [[ -n \${TMUX_PANE-} ]] && command tmux set-option -p -t "$TMUX_PANE" @tmux_mcp_shell "$$ zsh $__tmcp_nonce" 2>/dev/null
  fi
  builtin printf '\e]133;A;tmcp=%s.%s;s=%s;r=%s\a' "$__tmcp_nonce" "$__tmcp_n" "$s" "$r"
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
set -g __tmcp_d ''
# The server's key: note the line's digest, then run it.
function __tmcp_accept
  set -g __tmcp_d (builtin printf %s (commandline | string replace -ra '[ \t]' '') | command cksum | string replace ' ' -)
  commandline -f execute
end
function __tmcp_clear
  commandline ''
  if test "$fish_bind_mode" != insert; and contains -- "$fish_key_bindings" fish_vi_key_bindings fish_hybrid_key_bindings
    set fish_bind_mode insert
    commandline -f repaint-mode
  end
end
function __tmcp_bind
  for mode in default insert visual
    bind -M $mode \e\[9999~ __tmcp_accept
    bind -M $mode \e\[9998~ __tmcp_clear
  end
end
__tmcp_bind
# Key bindings switched (fish_vi_key_bindings): bind again.
function __tmcp_rebind --on-variable fish_key_bindings
  __tmcp_bind
end
function __tmcp_preexec --on-event fish_preexec
  set -g __tmcp_n (math $__tmcp_n + 1)
  set -g __tmcp_ran 1
  builtin printf '\e]133;C;tmcp=%s.%s;d=%s\a' $__tmcp_nonce $__tmcp_n "$__tmcp_d"
end
function __tmcp_postexec --on-event fish_postexec
  set -l s $status
  set -g __tmcp_ran 0
  builtin printf '\e]133;D;%s;tmcp=%s.%s;d=%s\a' $s $__tmcp_nonce $__tmcp_n "$__tmcp_d"
  if test -n "$__tmcp_d"; and set -q TMUX_PANE
    # In the background, disowned (no job message), so the prompt does not wait for tmux.
    command tmux set-option -p -t $TMUX_PANE -F @tmux_mcp_end "$__tmcp_nonce.$__tmcp_n $s #{history_size} #{cursor_y} $__tmcp_d" \; if-shell -F -t $TMUX_PANE "#{==:#{@tmux_mcp_wait},$__tmcp_nonce.$__tmcp_n}" "wait-for -S tmux-mcp-$__tmcp_nonce-$__tmcp_n" >/dev/null 2>&1 &
    disown $last_pid 2>/dev/null
  end
  set -g __tmcp_d ''
end
function __tmcp_prompt --on-event fish_prompt
  set -l s $status
  # At the first prompt the shell announces itself: from here on it reads commands.
  if not set -q __tmcp_announced
    set -g __tmcp_announced 1
    set -q TMUX_PANE; and command tmux set-option -p -t $TMUX_PANE @tmux_mcp_shell "$fish_pid fish $__tmcp_nonce" 2>/dev/null
  end
  builtin printf '\e]133;A;tmcp=%s.%s;s=%s;r=\a' $__tmcp_nonce $__tmcp_n $s
end
if test -n "$argv[2]"
  builtin printf '\e[%sA\r\e[J' $argv[2]
end
end
`;
