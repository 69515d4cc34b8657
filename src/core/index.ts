/**
 * The front door of core: everything the layers above it (profiles, mcp, view) use, and nothing else.
 * They import from here only (test/unit/layers.test.ts), so what core offers is this one list.
 */
export * from './act/buffers.js';
export * from './act/copy-mode.js';
export * from './act/input.js';
export * from './act/run-command.js';
export * from './arrange/arrange.js';
export * from './arrange/layout.js';
export * from './arrange/lifecycle.js';
export * from './arrange/naming.js';
export * from './arrange/resize.js';
export * from './arrange/spawn-options.js';
export * from './arrange/teardown.js';
export * from './engine.js';
export * from './failure.js';
export * from './ids.js';
export * from './quote.js';
export * from './read/bounded-regex.js';
export * from './read/capture.js';
export * from './read/capture-since.js';
export * from './read/corners.js';
export * from './read/display-message.js';
export * from './read/listings.js';
export * from './read/pane-details.js';
export * from './read/records.js';
export * from './read/search.js';
export * from './read/variables.js';
export * from './servers/generation.js';
export * from './servers/host-config.js';
export * from './servers/hosts.js';
export * from './servers/registry.js';
export * from './servers/servers.js';
export * from './servers/shutdown.js';
export * from './settings/environment.js';
export * from './settings/hooks.js';
export * from './settings/options.js';
export * from './settings/settings.js';
export * from './targets/caller-guard.js';
export * from './targets/placement.js';
export * from './targets/refs.js';
export * from './targets/resolve.js';
export { outside } from './targets/scope-gate.js';
export * from './watch/channels.js';
export * from './watch/pipe-pane.js';
export * from './watch/screen-paint.js';
export * from './watch/text-wait.js';
export * from './watch/wait.js';
