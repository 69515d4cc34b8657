/**
 * The official MCP conformance suite against the built server's own Streamable HTTP transport on a
 * loopback port with a bearer token, for both requirement sets the suite freezes: 2025-11-25 and
 * 2026-07-28 (each run at its own wire). The suite cannot send a header, so a loopback relay adds
 * the token and passes everything else (Host and Origin included) through unchanged.
 *
 * The suite (@modelcontextprotocol/conformance 0.2.0-alpha.12) needs Node.js 22; this project runs on
 * 20. So the run installs the suite, and a Node 22 binary from the npm registry (node-<os>-<arch>)
 * when this Node is older, into a cache folder of its own (suite.ts), once.
 *
 * A scenario either applies, and then every check of it must pass, or it does not, and says why:
 * it drives the suite's own reference fixtures (tools, resources and prompts named test_*, test://),
 * or a capability the server does not advertise. A few checks inside applicable scenarios drive a
 * fixture too; they are named with that reason, and every other check must pass.
 *
 * `npm run conformance [-- --profile NAME] [--era 2026-07-28] [--url URL]` prints the table (with --url, for a
 * server you started, its token in TMUX_MCP_TOKEN); `npm test` runs it
 * for each profile and era (test/e2e/http/conformance.test.ts).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bearerForwarder, startHttp } from '../fixture/http.js';
import { PrivateTmux } from '../fixture/tmux.js';
import { conformanceSuite, SUITE_VERSION } from './suite.js';

const run = promisify(execFile);

export const ERAS = ['2025-11-25', '2026-07-28'] as const;
export type Era = (typeof ERAS)[number];

type Capabilities = Record<string, any>;

const FIXTURES = "drives the suite's reference fixture";

/** Why a scenario does not apply to this server (undefined: it applies), given what it advertises. */
export function notApplicable(scenario: string, capabilities: Capabilities): string | undefined {
  if (/^tools-call-/.test(scenario))
    return `${FIXTURES} tools ("test_simple_text", "test_image_content", "test_error_handling" ...), which a server with a fixed tool contract does not define`;
  if (/^(resources-read-|resources-templates-read)/.test(scenario))
    return `${FIXTURES} resources ("test://static-text", "test://template/{id}/data" ...)`;
  if (/^prompts-get-/.test(scenario)) return `${FIXTURES} prompts ("test_simple_prompt", "test_prompt_with_arguments" ...)`;
  if (/^elicitation-/.test(scenario)) return `${FIXTURES} tools that elicit ("test_elicitation_sep1034_defaults" ...)`;
  if (/^input-required-result-/.test(scenario))
    return `${FIXTURES} tools that answer input_required ("test_input_required_result_elicitation" ...)`;
  if (scenario === 'json-schema-2020-12') return `${FIXTURES} tool "json_schema_2020_12_tool"`;
  if (scenario === 'server-sse-polling') return `${FIXTURES} tool "test_reconnection", which closes its stream mid-call`;
  switch (scenario) {
    case 'server-initialize':
    case 'server-stateless':
    case 'server-session-lifecycle':
    case 'ping':
    case 'tools-list':
    case 'dns-rebinding-protection':
    case 'server-sse-multiple-streams':
    case 'caching':
      return undefined;
    case 'resources-list':
      return capabilities.resources ? undefined : 'resources not advertised (the contract has none)';
    case 'sep-2164-resource-not-found':
      return capabilities.resources ? undefined : 'resources not advertised (the contract has none)';
    case 'prompts-list':
      return capabilities.prompts ? undefined : 'prompts not advertised (the contract has none)';
    case 'completion-complete':
      return capabilities.completions ? undefined : 'completions not advertised (the contract has no completable argument)';
    case 'logging-set-level':
      return capabilities.logging ? undefined : 'logging not advertised (the contract does not; the server writes to stderr)';
    case 'resources-subscribe':
    case 'resources-unsubscribe':
      return capabilities.resources?.subscribe ? undefined : 'resources/subscribe not advertised: the resources are fixed reports';
    default:
      return 'not classified yet: a scenario this runner does not know';
  }
}

/** Why a failing check inside an applicable scenario does not count (undefined: it counts). */
export function excusedCheck(
  scenario: string,
  check: { id: string; errorMessage?: string },
  capabilities: Capabilities,
): string | undefined {
  const said = check.errorMessage ?? '';
  // server-stateless probes four requirements through diagnostic tools of the suite's fixture server.
  const diagnostic = /does not list the diagnostic tool '([^']+)'/.exec(said);
  if (scenario === 'server-stateless' && diagnostic) return `${FIXTURES} diagnostic tool "${diagnostic[1]}"`;
  // The list-changed SHOULDs mutate the list through a fixture hook; these contracts' lists never change at run time.
  const hook = /^sep-2575-server-sends-(tools|prompts)-list-changed-on-subscription$/.exec(check.id)?.[1];
  if (scenario === 'server-stateless' && hook)
    return `${FIXTURES} hook "test_trigger_${hook === 'tools' ? 'tool' : 'prompt'}_change", which changes the ${hook} list (the contract's list is fixed)`;
  const listed = /^sep-2549-(prompts|resources|resources-templates)-list-caching-hints$/.exec(check.id)?.[1];
  if (scenario === 'caching' && listed) {
    const advertised = listed === 'prompts' ? capabilities.prompts : capabilities.resources;
    if (!advertised) return `${listed === 'prompts' ? 'prompts' : 'resources'} not advertised (the contract has none)`;
  }
  return undefined;
}

export interface ScenarioResult {
  readonly era: Era;
  readonly scenario: string;
  /** Present when the scenario does not apply to this server. */
  readonly notApplicable?: string;
  /** Checks by status, when it ran. */
  readonly counts?: Record<string, number>;
  /** Failing or warning checks that count. */
  readonly failures?: string[];
  /** Failing checks that drive a fixture or an unadvertised capability, with the reason. */
  readonly excused?: string[];
  readonly passed?: boolean;
}

/** The server scenarios a requirement set scores (extensions and pending scenarios are reported by the suite, never scored). */
export async function requiredScenarios(era: Era): Promise<string[]> {
  const { node, entry } = await conformanceSuite();
  const { stdout } = await run(node, [entry, 'list', '--server', '--requirements', era]);
  const server = stdout.split(/^Client scenarios/m)[0]!;
  return [...server.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]!);
}

/** Starts a private tmux and the server over HTTP with a token, runs both requirement sets (or `eras`), and tears all down. */
export async function runConformance(
  options: { profile?: string; eras?: readonly Era[]; onResult?: (result: ScenarioResult) => void } = {},
): Promise<{ capabilities: Capabilities; results: ScenarioResult[] }> {
  const tmux = new PrivateTmux();
  const cleanups: Array<() => Promise<void> | void> = [];
  try {
    await tmux.start({ session: 'conformance' });
    const token = `conformance-${process.pid}`;
    const server = await startHttp(
      { after: (fn) => cleanups.push(fn) },
      { env: { ...tmux.env, TMUX_MCP_TOKEN: token }, args: ['--profile', options.profile ?? 'libtmux'] },
    );
    return await runAgainst(server.url, token, options);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
    tmux.dispose();
  }
}

/**
 * Runs the requirement sets against a `tmux-mcp --http` already listening at `url` with `token`,
 * through a loopback relay that adds the token (the suite cannot send a header).
 */
export async function runAgainst(
  url: string,
  token: string,
  options: { eras?: readonly Era[]; onResult?: (result: ScenarioResult) => void } = {},
): Promise<{ capabilities: Capabilities; results: ScenarioResult[] }> {
  const suite = await conformanceSuite();
  const relay = await bearerForwarder(url, token);
  const out = mkdtempSync(join(tmpdir(), 'tmux-mcp-conformance-'));
  try {
    const capabilities = await advertised(url, token);
    const results: ScenarioResult[] = [];
    for (const era of options.eras ?? ERAS) {
      const dir = join(out, era);
      // One run of the whole set at its wire; a scenario's failure is in its checks, not the exit status.
      await run(suite.node, [suite.entry, 'server', '--url', relay.url, '--requirements', era, '-o', dir], {
        timeout: 300_000,
        maxBuffer: 64 * 1024 * 1024,
      }).catch(() => {});
      const checksOf = readRun(dir);
      for (const scenario of await requiredScenarios(era)) {
        const reason = notApplicable(scenario, capabilities);
        const checks = checksOf.get(scenario) ?? [];
        const counts: Record<string, number> = {};
        for (const check of checks) counts[check.status] = (counts[check.status] ?? 0) + 1;
        const failures: string[] = [];
        const excused: string[] = [];
        for (const check of checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')) {
          const why = excusedCheck(scenario, check, capabilities);
          if (why) excused.push(`${check.id}: ${why}`);
          else failures.push(`${check.id}: ${check.errorMessage ?? check.status}`);
        }
        const result: ScenarioResult = {
          era,
          scenario,
          ...(reason !== undefined ? { notApplicable: reason } : {}),
          counts,
          failures,
          excused,
          passed: failures.length === 0 && (counts.SUCCESS ?? 0) > 0,
        };
        results.push(result);
        options.onResult?.(result);
      }
    }
    return { capabilities, results };
  } finally {
    await relay.close();
    rmSync(out, { recursive: true, force: true });
  }
}

/** The capabilities the server advertises to a 2025-11-25 client (the 2026-07-28 discover result advertises the same). */
async function advertised(url: string, token: string): Promise<Capabilities> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'conformance-runner', version: '0' } },
    }),
  });
  const text = await response.text();
  const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
  return JSON.parse(json).result.capabilities;
}

interface Check {
  readonly id: string;
  readonly status: string;
  readonly errorMessage?: string;
}

/** Each scenario's checks from a run's output folder (one `server-<scenario>-<time>` folder per scenario). */
function readRun(dir: string): Map<string, Check[]> {
  const byScenario = new Map<string, Check[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return byScenario;
  }
  for (const entry of entries) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(entry)?.[1];
    if (!scenario) continue;
    try {
      byScenario.set(scenario, JSON.parse(readFileSync(join(dir, entry, 'checks.json'), 'utf8')));
    } catch {
      byScenario.set(scenario, []);
    }
  }
  return byScenario;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = (flag: string) => (process.argv.includes(flag) ? process.argv[process.argv.indexOf(flag) + 1] : undefined);
  const profile = at('--profile') ?? 'libtmux';
  const era = at('--era') as Era | undefined;
  // --url: a server you started yourself (its token in TMUX_MCP_TOKEN); else one is started here.
  const url = at('--url');
  if (url && !process.env.TMUX_MCP_TOKEN) throw new Error("--url needs the server's token in TMUX_MCP_TOKEN");
  console.log(`conformance ${SUITE_VERSION}, ${url ? `the server at ${url}` : `${profile} profile`}, over tmux-mcp --http with a token`);
  const onResult = (r: ScenarioResult) => {
    const outcome = r.passed ? 'passes' : `fails: ${r.failures!.join('; ') || 'no check passed'}`;
    const excused = r.excused?.length ? ` (not counted: ${r.excused.join('; ')})` : '';
    if (r.notApplicable)
      console.log(`${r.era}  n/a   ${r.scenario.padEnd(46)} ${r.notApplicable} (run anyway: ${r.passed ? 'passes' : 'fails'})`);
    else console.log(`${r.era}  ${r.passed ? 'pass' : 'FAIL'}  ${r.scenario.padEnd(46)} ${r.passed ? '' : outcome}${excused}`);
  };
  const eras = era ? { eras: [era] } : {};
  const { capabilities, results } = url
    ? await runAgainst(url, process.env.TMUX_MCP_TOKEN!, { ...eras, onResult })
    : await runConformance({ profile, ...eras, onResult });
  console.log(`\ncapabilities: ${Object.keys(capabilities).join(', ')}`);
  let ok = true;
  for (const each of era ? [era] : ERAS) {
    const applicable = results.filter((r) => r.era === each && r.notApplicable === undefined);
    const passed = applicable.filter((r) => r.passed);
    const all = results.filter((r) => r.era === each).length;
    console.log(
      `${each}: ${passed.length}/${applicable.length} applicable scenarios pass (${all - applicable.length} of ${all} need the suite's fixtures or an unadvertised capability)`,
    );
    ok &&= passed.length === applicable.length;
  }
  process.exitCode = ok ? 0 : 1;
}
