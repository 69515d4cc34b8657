/** Profile lookup: one engine, one contract per profile. */
import { ConfigError, type Config } from '../config.js';
import type { EngineRegistry } from '../core/servers/registry.js';
import type { Profile } from '../mcp/server.js';
import { selectionSummary } from '../mcp/tools/selection.js';
import { createJuliaProfile } from './julia/index.js';
import { createLibtmuxProfile } from './libtmux/index.js';
import { createPythonProfile } from './python/index.js';

export interface ProfileBuild {
  readonly profile: Profile<unknown>;
  /** One line for the banner: which tools are in force. */
  readonly selectionSummary: string;
  /** What the profile must do before the process exits (the julia profile kills the sessions it created). */
  readonly close?: () => Promise<void>;
}

export async function buildProfile(config: Config, registry: EngineRegistry, launchesDaemon: boolean | Promise<boolean>): Promise<ProfileBuild> {
  switch (config.profile) {
    case 'libtmux': {
      const profile = createLibtmuxProfile({ config, registry, launchesDaemon });
      return { profile: profile as Profile<unknown>, selectionSummary: selectionSummary(profile.tools.length, profile.selection) };
    }
    case 'python': {
      const profile = createPythonProfile({ config, registry });
      return { profile: profile as Profile<unknown>, selectionSummary: selectionSummary(profile.tools.length, profile.selection) };
    }
    case 'julia': {
      if (!config.julia) throw new ConfigError('the julia profile needs its options (parseCli sets them)');
      const profile = await createJuliaProfile(config.julia, registry, { readOnly: config.readOnly });
      return { profile: profile as Profile<unknown>, selectionSummary: `${profile.tools.length} tools (${config.readOnly ? 'read-only; ' : ''}${profile.tools.map((t) => t.name).join(',')})`, close: () => profile.close() };
    }
    default:
      throw new ConfigError(`the ${config.profile} profile is not built yet; use --profile libtmux (the default)`);
  }
}
