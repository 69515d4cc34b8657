/** Profile lookup: one engine, one contract per profile. */
import { ConfigError, type Config } from '../config.js';
import type { EngineRegistry } from '../core/registry.js';
import type { Profile } from '../mcp/server.js';
import { createLibtmuxProfile } from './libtmux/index.js';

export interface ProfileBuild {
  readonly profile: Profile<unknown>;
  /** One line for the banner: which tools are in force. */
  readonly selectionSummary: string;
}

export function buildProfile(config: Config, registry: EngineRegistry, launchesDaemon: boolean): ProfileBuild {
  switch (config.profile) {
    case 'libtmux': {
      const profile = createLibtmuxProfile({ config, registry, launchesDaemon });
      const { toolsets, included, excluded } = profile.selection;
      return {
        profile: profile as Profile<unknown>,
        selectionSummary:
          `${profile.tools.length} tools (toolsets ${toolsets.join(',') || 'none'}` +
          (included.size ? `; added ${[...included].join(',')}` : '') +
          (excluded.size ? `; excluded ${[...excluded].join(',')}` : '') +
          ')',
      };
    }
    default:
      throw new ConfigError(`the ${config.profile} profile is not built yet; use --profile libtmux (the default)`);
  }
}
