/**
 * How late `run_shell_command` sees a command's end after a flood: a pane prints N MB,
 * then the time in ms; the built server answers through the SDK client. Reported per run: from the
 * shell printing its last line to the answer arriving (what the caller waits), and to tmux's own
 * screen showing it (a `capture-pane` poll from outside, every 20 ms: tmux's own lag).
 *
 *   npm run build && node --import tsx bench/flood-end.ts [--mb 100] [--runs 3] [--cli other/dist/cli.js]
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BenchTmux } from './tmux.js';
import { McpDriver, useCli } from './mcp.js';
import { scrubbedEnv, TMUX_BIN } from '../test/fixture/tmux.js';

const run = promisify(execFile);
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const mb = arg('mb', 100);
const runs = arg('runs', 3);
const cli = process.argv.indexOf('--cli');
if (cli !== -1) useCli(process.argv[cli + 1]!); // another build, e.g. to compare with the one before a change

const tmux = new BenchTmux();
const pane = await tmux.start({ height: 40, width: 200 });
const driver = await McpDriver.ours(scrubbedEnv({ LIBTMUX_SOCKET_PATH: tmux.socketPath, LIBTMUX_MCP_WAIT_MAX_SECONDS: '600' }));
const rows: string[] = [];
try {
  for (let i = 1; i <= runs; i++) {
    // tmux's screen, looked at from outside until it shows the stamp.
    const began = Date.now();
    let screenAt = 0;
    let polling = true;
    const poll = (async () => {
      while (polling && !screenAt) {
        const { stdout } = await run(TMUX_BIN, ['-S', tmux.socketPath, 'capture-pane', '-p', '-t', pane], { env: scrubbedEnv() });
        const shown = [...stdout.matchAll(/^STAMP=(\d+)/gm)].some((m) => Number(m[1]) > began);
        if (shown) screenAt = Date.now();
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const command = `head -c ${mb * 1_000_000} /dev/zero | tr '\\0' 'x' | fold -w 200; echo; echo STAMP=$(date +%s%3N)`;
    const answer = await driver.call('run_shell_command', { paneId: pane, command, timeoutMs: 600_000, maxLines: 3 }, 700_000);
    polling = false;
    await poll;
    const result = answer.structured as { exitStatus: number | null; output: string[]; linesMissed: boolean; seconds: number };
    const stamp = Number(result.output.find((line) => line.startsWith('STAMP='))?.slice(6));
    const row = `| ${i} | ${mb} | ${result.seconds.toFixed(1)} | ${Math.round(answer.receivedAt - stamp)} | ${screenAt ? screenAt - stamp : 'n/a'} | ${result.exitStatus} | ${result.linesMissed} |`;
    rows.push(row);
    console.log(row);
    await tmux.tmux('clear-history', '-t', pane);
  }
} finally {
  await driver.close();
  tmux.dispose();
}
console.log(
  [
    '',
    '| run | MB | call s | last line printed -> answer (ms) | last line printed -> on tmux screen (ms, 20 ms poll) | exit | linesMissed |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n'),
);
