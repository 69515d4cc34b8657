import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { allToolArgs, startJulia } from '../fixture/julia.js';
import { privateTmux } from '../fixture/tmux.js';
test('probe', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const broken = join(tmux.dir, 'broken-tmux');
  writeFileSync(broken, '#!/bin/sh\n[ "$1" = -V ] && echo "tmux 3.3a" && exit 0\necho "$@" >> ' + tmux.dir + '/calls.log\nhead -c 2000000 /dev/zero | tr "\\0" x >&2\nexit 1\n');
  chmodSync(broken, 0o755);
  const julia = await startJulia(t, tmux, { negotiation: 'auto', args: [...allToolArgs(), '--allow-create', '--tmux', broken] });
  for (const [tool, args] of [['list_panes', {}], ['send_keys', { target: { paneId: '%0', generation: '1:1:x' }, keys: ['x'] }]] as const) {
    const r = await julia.mcp.call(tool, args as any);
    console.error(tool, JSON.stringify(r.structuredContent).slice(0, 300));
  }
  console.error((await import('node:fs')).readFileSync(tmux.dir + '/calls.log', 'utf8'));
});
