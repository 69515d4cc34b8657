/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.13) against the built
 * server's own Streamable HTTP transport on a loopback port, with a bearer token. The suite cannot
 * send a header, so a loopback forwarder adds the token and passes everything else (Host and Origin
 * included) through unchanged.
 *
 * Which scenarios apply follows from what the server advertises in `initialize`; the others need
 * the suite's own fixtures or a feature the server does not offer, and say why.
 *
 * `npm run conformance` runs every scenario and prints the table; `npm test` runs the applicable
 * ones (test/e2e/http-conformance.test.ts).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { bearerForwarder, startHttp } from '../fixture/http.js';
import { PrivateTmux } from '../fixture/tmux.js';

const run = promisify(execFile);
const SUITE = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')), 'dist/index.js');

type Capabilities = Record<string, any>;

/** Why a scenario applies (undefined) or does not (the reason), given the advertised capabilities. */
export function notApplicable(scenario: string, capabilities: Capabilities): string | undefined {
  const fixtures = 'exercises the suite\'s own fixture ("test_*" tools, prompts or "test://" resources), which a server with a fixed contract does not define';
  switch (scenario) {
    case 'server-initialize':
    case 'ping':
    case 'tools-list':
    case 'dns-rebinding-protection':
      return undefined;
    case 'resources-list':
      return capabilities.resources ? undefined : 'resources not advertised';
    case 'prompts-list':
      return capabilities.prompts ? undefined : 'prompts not advertised';
    case 'completion-complete':
      return capabilities.completions ? undefined : 'completions not advertised';
    case 'logging-set-level':
      return capabilities.logging ? undefined : 'logging not advertised (deprecated in 2026-07-28; the server logs to stderr)';
    case 'resources-subscribe':
    case 'resources-unsubscribe':
      return capabilities.resources?.subscribe ? undefined : 'resources/subscribe not advertised';
    case 'server-sse-polling':
    case 'server-sse-multiple-streams':
      return 'needs a 2025-era HTTP session (Mcp-Session-Id); 2025-11-25 over HTTP is served statelessly by the SDK\'s createMcpHandler, and 2026-07-28 has no sessions';
    default:
      if (/^(tools-call-|resources-read-|resources-templates-|prompts-get-|elicitation-|json-schema-)/.test(scenario)) return fixtures;
      return 'not classified yet: a scenario this runner does not know';
  }
}

export interface ScenarioResult {
  readonly scenario: string;
  /** Present when the scenario does not apply to this server. */
  readonly notApplicable?: string;
  /** Checks by status, when it ran. */
  readonly counts?: Record<string, number>;
  readonly failures?: string[];
  readonly passed?: boolean;
}

export async function listScenarios(): Promise<string[]> {
  const { stdout } = await run(process.execPath, [SUITE, 'list', '--server']);
  return [...stdout.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]!);
}

/** Starts a private tmux and the server over HTTP with a token, runs the scenarios, and tears all down. */
export async function runConformance(options: { all?: boolean; onResult?: (result: ScenarioResult) => void } = {}): Promise<{ capabilities: Capabilities; results: ScenarioResult[] }> {
  const tmux = new PrivateTmux();
  const cleanups: Array<() => Promise<void> | void> = [];
  const out = mkdtempSync(join(tmpdir(), 'tmux-mcp-conformance-'));
  try {
    await tmux.start({ session: 'conformance' });
    const token = `conformance-${process.pid}`;
    const server = await startHttp({ after: (fn) => cleanups.push(fn) }, { env: { ...tmux.env, TMUX_MCP_TOKEN: token } });
    const forwarder = await bearerForwarder(server.url, token);
    cleanups.push(() => forwarder.close());
    const capabilities = await advertised(server.url, token);
    const results: ScenarioResult[] = [];
    for (const scenario of await listScenarios()) {
      const reason = notApplicable(scenario, capabilities);
      let result: ScenarioResult;
      if (reason !== undefined && !options.all) result = { scenario, notApplicable: reason };
      else {
        const dir = join(out, scenario);
        await run(process.execPath, [SUITE, 'server', '--url', forwarder.url, '--scenario', scenario, '-o', dir], { timeout: 120_000 }).catch(() => {});
        const checks = readChecks(dir);
        const counts: Record<string, number> = {};
        for (const check of checks) counts[check.status] = (counts[check.status] ?? 0) + 1;
        const failures = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING').map((check) => `${check.id}: ${check.errorMessage ?? check.status}`);
        result = { scenario, ...(reason !== undefined ? { notApplicable: reason } : {}), counts, failures, passed: failures.length === 0 && (counts.SUCCESS ?? 0) > 0 };
      }
      results.push(result);
      options.onResult?.(result);
    }
    return { capabilities, results };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
    tmux.dispose();
    rmSync(out, { recursive: true, force: true });
  }
}

/** The capabilities the server advertises to a 2025-11-25 client. */
async function advertised(url: string, token: string): Promise<Capabilities> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'conformance-runner', version: '0' } } }),
  });
  const text = await response.text();
  const json = text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)?.[1] ?? '{}';
  return JSON.parse(json).result.capabilities;
}

function readChecks(dir: string): Array<{ id: string; status: string; errorMessage?: string }> {
  try {
    const [run] = readdirSync(dir);
    return JSON.parse(readFileSync(join(dir, run!, 'checks.json'), 'utf8'));
  } catch {
    return [];
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const all = !process.argv.includes('--applicable');
  const { capabilities, results } = await runConformance({
    all,
    onResult: (r) => {
      const outcome = r.passed === undefined ? '' : r.passed ? 'passes' : `fails: ${r.failures!.join('; ').slice(0, 160)}`;
      if (r.notApplicable) console.log(`n/a   ${r.scenario.padEnd(30)} ${r.notApplicable}${outcome ? ` (run anyway: ${outcome})` : ''}`);
      else console.log(`${r.passed ? 'pass' : 'FAIL'}  ${r.scenario.padEnd(30)} ${r.passed ? '' : outcome}`);
    },
  });
  const applicable = results.filter((r) => r.notApplicable === undefined);
  const passed = applicable.filter((r) => r.passed);
  console.log(`\ncapabilities: ${Object.keys(capabilities).join(', ')}`);
  console.log(`applicable scenarios passed: ${passed.length}/${applicable.length} (of ${results.length} server scenarios)`);
  process.exitCode = passed.length === applicable.length ? 0 : 1;
}
