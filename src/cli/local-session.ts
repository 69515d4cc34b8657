/**
 * `tmux-mcp call` without `--url`: the engine and the profile start in this process, and the call
 * goes through the very server the MCP transports serve (its listing, argument and result
 * validation, error rendering, byte caps), reached over the SDK's in-memory transport pair. The
 * client side is a few lines of JSON-RPC rather than the SDK Client: that package carries its own
 * copy of the protocol schemas, which would double what a one-shot call loads.
 */
import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { ConfigError, type Config } from '../config.js';
import { checkTmuxBin } from './tmux-check.js';
import { createServerFactory, profileWire } from '../mcp/server.js';
import { buildProfile } from '../profiles/index.js';
import { VERSION } from '../version.js';
import { registryFor } from './engine.js';
import { approvalRules, localAsking, openApprovals } from './approvals.js';
import { ProtocolRefusal, type CallSession, type ListedTool, type ToolResult } from './session.js';

export async function openLocalSession(config: Config, env: NodeJS.ProcessEnv): Promise<CallSession> {
  await checkTmuxBin(config, env);
  // A recording follows a pane from when a call first acts on it until the server exits; a one-shot
  // call would end before it began. Oversight belongs to a server the calls are sent to (--url).
  if (config.record) {
    throw new ConfigError('--record keeps recordings for a running server: start `tmux-mcp --http PORT --record DIR` and send calls to it with --url');
  }
  // Checked before tmux is touched: a bad rule is a usage error.
  const rules = config.approvals ? approvalRules(config) : undefined;
  const registry = registryFor(config);
  const running = (await registry.defaultEngine.identity().catch(() => undefined)) !== undefined;
  let build: Awaited<ReturnType<typeof buildProfile>>;
  try {
    build = await buildProfile(config, registry, !running);
  } catch (error) {
    await registry.close();
    throw error;
  }
  const { profile } = build;
  // A call that needs approval asks on this terminal when there is one, else it is refused (nobody to ask).
  const approvals = rules ? openApprovals(config, rules, registry, localAsking()) : undefined;
  const server = createServerFactory(profile, approvals ? { approvals } : {})();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(profileWire(profile, serverSide));
  const rpc = new JsonRpc(clientSide);
  await clientSide.start();

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    // The julia profile's close ends what its calls own (sessions made by create_session), as the server does at exit.
    profile.closing?.();
    await server.close().catch(() => {});
    await build.close?.().catch(() => {});
    await registry.close();
  };
  try {
    await rpc.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'tmux-mcp-call', version: VERSION },
    });
    await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  } catch (error) {
    await close();
    throw error;
  }
  return {
    label: `the ${config.profile} profile`,
    async listTools() {
      const { tools } = (await rpc.request('tools/list', {})) as { tools: ListedTool[] };
      return tools;
    },
    async callTool(name, args) {
      return (await rpc.request('tools/call', { name, arguments: args })) as ToolResult;
    },
    close,
  };
}

/** Requests by id over one transport, answered in any order. */
class JsonRpc {
  #next = 1;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  constructor(private readonly transport: InMemoryTransport) {
    transport.onmessage = (message: JSONRPCMessage) => {
      if (!('id' in message) || typeof message.id !== 'number' || 'method' in message) return; // notifications (progress)
      const waiter = this.#pending.get(message.id);
      if (!waiter) return;
      this.#pending.delete(message.id);
      if ('error' in message) waiter.reject(new ProtocolRefusal(message.error.message, message.error.code));
      else waiter.resolve(message.result);
    };
    transport.onclose = () => {
      for (const waiter of this.#pending.values()) waiter.reject(new Error('the in-process server closed'));
      this.#pending.clear();
    };
  }

  request(method: string, params: Record<string, unknown>): Promise<unknown> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.transport.send({ jsonrpc: '2.0', id, method, params }).catch(reject);
    });
  }
}
