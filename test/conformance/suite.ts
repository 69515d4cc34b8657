/**
 * The conformance suite the runs use, installed on first use: @modelcontextprotocol/conformance at
 * SUITE_VERSION (the first to freeze the 2026-07-28 requirement set), which needs Node.js 22. When
 * this Node is older, a Node 22 binary comes from the npm registry too (the node-<os>-<arch>
 * packages, a plain tarball of the official build, no install script). Both go into a cache folder
 * outside the repository, once; later runs use it without the network.
 *
 * TMUX_MCP_CONFORMANCE_DIR chooses the folder (default: $XDG_CACHE_HOME or ~/.cache, then tmux-mcp-ts/).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const SUITE_VERSION = '0.2.0-alpha.12';
/** The Node the suite runs on when this one is older than 22. */
export const SUITE_NODE_VERSION = '22.23.5';

export interface Suite {
  /** The Node executable that runs the suite. */
  readonly node: string;
  /** The suite's CLI entry. */
  readonly entry: string;
}

let installing: Promise<Suite> | undefined;

export function conformanceSuite(): Promise<Suite> {
  return (installing ??= install());
}

async function install(): Promise<Suite> {
  const ownNodeWill = Number(process.versions.node.split('.')[0]) >= 22;
  const nodePackage = `node-${process.platform}-${process.arch}`;
  const cache = process.env.TMUX_MCP_CONFORMANCE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'tmux-mcp-ts');
  const dir = join(cache, `conformance-${SUITE_VERSION}${ownNodeWill ? '' : `-node-${SUITE_NODE_VERSION}`}`);
  const suite: Suite = {
    node: ownNodeWill ? process.execPath : join(dir, 'node_modules', nodePackage, 'bin', 'node'),
    entry: join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js'),
  };
  if (existsSync(suite.entry) && existsSync(suite.node)) return suite;

  // Installed beside the final folder and renamed into place, so a run cut short leaves nothing half-made.
  mkdirSync(cache, { recursive: true });
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const packages = [`@modelcontextprotocol/conformance@${SUITE_VERSION}`, ...(ownNodeWill ? [] : [`${nodePackage}@${SUITE_NODE_VERSION}`])];
  try {
    await run(
      'npm',
      [
        'install',
        '--prefix',
        staging,
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--loglevel=error',
        ...packages,
      ],
      {
        timeout: 300_000,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const said = (error as { stderr?: string }).stderr?.trim().split('\n').slice(-3).join(' ') ?? String(error);
    throw new Error(`could not install the conformance suite (${packages.join(', ')}) from the npm registry into ${cache}: ${said}`);
  }
  if (existsSync(dir))
    rmSync(staging, { recursive: true, force: true }); // another run finished first
  else renameSync(staging, dir);
  if (!existsSync(suite.entry) || !existsSync(suite.node))
    throw new Error(`the conformance suite in ${dir} is incomplete; remove that folder and run again`);
  return suite;
}
