/**
 * The lifecycle tools: create_session and teardown_session (sessions this process owns, the only
 * ones it may tear down), and kill_pane.
 */
import {
  checkGeneration,
  createSession as create,
  generationOf,
  invalidArgument,
  killPane as kill,
  killSession,
  listPanes,
  listSessions,
  onPane,
  programArgv,
  SESSION_ID,
  typedCommand,
} from '../../../core/index.js';
import { array, boolean, object, string } from '../../../mcp/tools/schema.js';
import { type JuliaApp, MAX_OWNED_PANES, MAX_OWNED_SESSIONS, PolicyRefusal } from '../app.js';
import { checkText, planOn } from '../checks.js';
import { CHANGE, CREATE, juliaTool } from '../declare.js';
import { mutationDone, mutationOutput, outcomes, paneInput, targetOut } from '../schemas.js';

const MAX_ARGV = 32;
const MAX_ARG_BYTES = 1024;
const MAX_ARGV_BYTES = 8192;
const NAME = /^[A-Za-z0-9_-]+$/;

const created = object(
  {
    completed: boolean(),
    generation: string(),
    ownership: { const: 'application' },
    panes: array(targetOut, { maxItems: MAX_OWNED_PANES }),
    sessionId: string(),
  },
  ['completed', 'panes', 'sessionId', 'generation', 'ownership'],
);

export const createSession = juliaTool({
  name: 'create_session',
  description:
    'Start a detached tmux session named `name` running `command` (an argv list, run without a shell: ["bash"], ' +
    '["python3", "-q"]). This process owns the session: only it may end it with teardown_session, and it is killed when the server ' +
    'exits. Needs --allow-create; at most 8 owned sessions. Returns the session and the targets of its panes (which ' +
    'join the allow-list when there is one). Completion means the session exists, not that the command finished.',
  mutating: true,
  annotations: CREATE,
  input: () =>
    object(
      {
        command: array(string({ maxLength: MAX_ARG_BYTES, description: 'One argv entry, at most 1024 UTF-8 bytes.' }), {
          minItems: 1,
          maxItems: MAX_ARGV,
          description:
            'The program and its arguments (1 to 32 entries, 8192 bytes in all); no shell expansion. The first must not be empty or start with "-".',
        }),
        name: string({
          maxLength: 64,
          pattern: NAME.source,
          description: 'Session name: letters, digits, "_" and "-", at most 64 bytes; must not be taken.',
        }),
      },
      ['name', 'command'],
    ),
  output: outcomes(created),
  // Run without a shell, but a person reads it as the command line it is.
  typed: (args) => [typedCommand(args.command.join(' '))],
  plan(args, app) {
    if (!app.settings.allowCreate) throw new PolicyRefusal('creation_denied', 'session creation requires allow_create=true');
    checkText(args.name, 64, 'name');
    if (!NAME.test(args.name)) throw invalidArgument('invalid session name');
    args.command.forEach((arg, i) => checkText(arg, MAX_ARG_BYTES, `command[${i}]`));
    if (args.command.reduce((sum, arg) => sum + Buffer.byteLength(arg, 'utf8'), 0) > MAX_ARGV_BYTES)
      throw invalidArgument(`command exceeds ${MAX_ARGV_BYTES} bytes`);
    programArgv(args.command);
    return { name: args.name, command: args.command };
  },
  async run(plan, { app }) {
    if (app.owned.size + app.creating >= MAX_OWNED_SESSIONS) throw new PolicyRefusal('owned_limit', 'at most eight owned sessions');
    app.creating++;
    try {
      const session = await create(app.engine, plan);
      const generation = generationOf(session.incarnation);
      app.owned.set(session.id, { generation, panes: [] });
      try {
        return await adopt(app, session.id, generation);
      } catch (error) {
        // Half-made is worse than not made: the session goes again, best effort.
        app.owned.delete(session.id);
        await killSession(app.engine, session.id, true).catch(() => {});
        throw error;
      }
    } finally {
      app.creating--;
    }
  },
});

/** Records the new session's panes as owned (and so allowed) and answers with them. */
async function adopt(app: JuliaApp, sessionId: string, generation: string) {
  const panes = await listPanes(app.engine, { sessionId });
  if (panes.some((pane) => generationOf(pane.incarnation) !== generation)) await checkGeneration(app.engine, sessionId, generation);
  if (panes.length > MAX_OWNED_PANES)
    throw new PolicyRefusal('owned_limit', `created session exceeds ${MAX_OWNED_PANES} observed panes`, true);
  const targets = panes.map((pane) => ({ paneId: pane.id, generation }));
  app.owned.set(sessionId, { generation, panes: targets });
  return { completed: true, panes: targets, sessionId, generation, ownership: 'application' };
}

export const teardownSession = juliaTool({
  name: 'teardown_session',
  targets: ['sessionId'],
  description:
    'Kill a session this process created with create_session, with every pane in it, and forget it. Sessions this ' +
    'process did not create are refused (ownership_required): they belong to someone else. Pass the sessionId and ' +
    'generation create_session returned.',
  mutating: true,
  annotations: CHANGE,
  input: () =>
    object(
      {
        generation: string({ maxLength: 128, description: 'The generation create_session returned, at most 128 bytes.' }),
        sessionId: string({ maxLength: 64, description: 'The session id create_session returned, like $3.' }),
      },
      ['sessionId', 'generation'],
    ),
  output: outcomes(object({ completed: boolean(), generation: string(), sessionId: string() }, ['completed', 'sessionId', 'generation'])),
  plan(args, app) {
    checkText(args.sessionId, 64, 'sessionId');
    if (!SESSION_ID.test(args.sessionId)) throw invalidArgument(`invalid session ID: ${JSON.stringify(args.sessionId)}`);
    checkText(args.generation, 128, 'generation');
    if (app.owned.get(args.sessionId)?.generation !== args.generation)
      throw new PolicyRefusal('ownership_required', 'session is not owned by this application');
    return { sessionId: args.sessionId, generation: args.generation };
  },
  async run(plan, { app }) {
    await checkGeneration(app.engine, plan.sessionId, plan.generation);
    await killSession(app.engine, plan.sessionId, true).catch(async (error: unknown) => {
      // Already gone from this same server (its last program exited): the goal is met.
      const still = (await listSessions(app.engine)).some((s) => s.id === plan.sessionId);
      if (still) throw error;
      await checkGeneration(app.engine, plan.sessionId, plan.generation);
    });
    app.owned.delete(plan.sessionId);
    return { completed: true, sessionId: plan.sessionId, generation: plan.generation };
  },
});

/** At shutdown: kill the owned sessions still there; never anything else. */
export async function closeOwned(app: JuliaApp): Promise<void> {
  const sessions = [...app.owned.entries()];
  app.owned.clear();
  for (const [sessionId, { generation }] of sessions) {
    await checkGeneration(app.engine, sessionId, generation)
      .then(() => killSession(app.engine, sessionId, true))
      .catch(() => {});
  }
}

export const killPane = juliaTool({
  name: 'kill_pane',
  targets: ['target.paneId'],
  description:
    'Close a pane and end the program in it (tmux kill-pane); its window closes with its last pane, and the session ' +
    'with its last window. Irreversible. To stop only the running command and keep the pane, send_keys ["C-c"] instead.',
  mutating: true,
  annotations: CHANGE,
  input: (settings) => paneInput(settings, {}, []),
  output: mutationOutput,
  plan: (args, app) => planOn(args, app, () => ({})),
  async run(plan, { app }) {
    const engine = await app.checkTarget(plan.target);
    await onPane(engine, plan.target.paneId, () => kill(engine, plan.target.paneId, false));
    return mutationDone(plan.target);
  },
});
