/** Profile lookup: one engine, one contract per profile. */
import { ConfigError, type Config } from '../config.js';
import type { EngineRegistry } from '../core/index.js';
import type { Profile } from '../mcp/profile.js';
import { selectionSummary } from '../mcp/tools/selection.js';

export interface ProfileBuild {
  readonly profile: Profile<unknown>;
  /** One line for the banner: which tools are in force. */
  readonly selectionSummary: string;
  /** What the profile must do before the process exits (the julia profile kills the sessions it created). */
  readonly close?: () => Promise<void>;
}

/** Only the profile in use is loaded: the others' code would be read and compiled at every start for nothing. */
export async function buildProfile(
  config: Config,
  registry: EngineRegistry,
  launchesDaemon: boolean | Promise<boolean>,
): Promise<ProfileBuild> {
  switch (config.profile) {
    case 'libtmux': {
      const { createLibtmuxProfile } = await import('./libtmux/index.js');
      const profile = createLibtmuxProfile({ config, registry, launchesDaemon });
      return { profile: profile as Profile<unknown>, selectionSummary: selectionSummary(profile.tools.length, profile.selection) };
    }
    case 'python': {
      const { createPythonProfile } = await import('./python/index.js');
      const profile = createPythonProfile({ config, registry });
      return { profile: profile as Profile<unknown>, selectionSummary: selectionSummary(profile.tools.length, profile.selection) };
    }
    case 'julia': {
      if (!config.julia) throw new ConfigError('the julia profile needs its options (parseCli sets them)');
      const { createJuliaProfile } = await import('./julia/index.js');
      const profile = await createJuliaProfile(config.julia, registry, { readOnly: config.readOnly });
      return {
        profile: profile as Profile<unknown>,
        selectionSummary: `${profile.tools.length} tools (${config.readOnly ? 'read-only; ' : ''}${profile.tools.map((t) => t.name).join(',')})`,
        close: () => profile.close(),
      };
    }
    default:
      throw new ConfigError(`the ${config.profile} profile is not built yet; use --profile libtmux (the default)`);
  }
}
