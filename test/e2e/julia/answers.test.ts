/**
 * Answers of the julia profile that must not mislead, against real tmux through the SDK client:
 * capture_pane keeps the newest text when it has to cut, and wait_for_text matches only output
 * that is new (since this server's last input into the pane or the end of the last wait on it).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allToolArgs, startJulia } from '../../fixture/julia.js';
import { privateTmux } from '../../fixture/tmux.js';

const X90 = 'X'.repeat(90);

test('julia capture_pane keeps the newest text over maxBytes: whole lines, and a long last line by its end', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const julia = await startJulia(t, tmux, { negotiation: 'auto', args: allToolArgs() });
  const target = await julia.target(pane);

  // 3,000 lines of about 100 bytes: 1,000 of them are far over the default 65536 bytes.
  await tmux.typeAndWait(pane, `seq -f 'wide-%g-${X90}' 1 3000`);
  const wide = await julia.ok('capture_pane', { target, lines: 1000 });
  assert.equal(wide.truncated, true);
  assert.ok(Buffer.byteLength(wide.text) <= 65536, `${Buffer.byteLength(wide.text)} bytes`);
  const rows = wide.text.split('\n');
  assert.equal(rows.at(-1), '', 'the text ends with a whole line');
  assert.equal(rows.at(-2), '$', 'the newest line (the prompt) is kept');
  assert.equal(rows.at(-3), `wide-3000-${X90}`);
  assert.match(rows[0], /^wide-\d+-X{90}$/, 'the text starts with a whole line');

  await tmux.typeAndWait(pane, 'seq 1 200000');
  const few = await julia.ok('capture_pane', { target, lines: 5, maxBytes: 20 });
  assert.deepEqual([few.text, few.truncated], ['199999\n200000\n$\n', true]);

  // A last line longer than maxBytes keeps its end, cut between characters (€ is 3 bytes).
  const program = (await tmux.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', `printf 'ab${'€'.repeat(10)}'; exec sleep 600`)).trim();
  const euros = await julia.target(program);
  await julia.ok('wait_for_text', { target: euros, text: '€'.repeat(10) });
  const cut = await julia.ok('capture_pane', { target: euros, maxBytes: 10 });
  assert.deepEqual([cut.text, cut.truncated], ['€€€\n', true]);
  const whole = await julia.ok('capture_pane', { target: euros });
  assert.deepEqual([whole.text, whole.truncated], [`ab${'€'.repeat(10)}\n`, false]);
});

test('julia wait_for_text counts only output since the last input or the end of the last wait: a new build, not the last one', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const julia = await startJulia(t, tmux, { negotiation: 'auto', args: [...allToolArgs(), '--timeout', '2'] });
  const target = await julia.target(pane);

  // The first build: its "BUILD OK" arrives after the keys (the typed line reads BUILD O""K).
  await julia.ok('send_keys', { target, keys: ['echo BUILD O""K', 'Enter'] });
  const first = await julia.ok('wait_for_text', { target, text: 'BUILD OK' });
  assert.equal(first.source, 'output');

  // A second build that prints only once released: the old line on screen must not answer the wait.
  await julia.ok('send_keys', { target, keys: [`tmux -S '${tmux.socketPath}' wait-for go; echo BUILD O""K`, 'Enter'] });
  let released = false;
  const second = await julia.payload('wait_for_text', { target, text: 'BUILD OK' }, {
    onprogress: (progress: { message?: string }) => {
      // The wait is watching and found nothing yet: let the build finish.
      if (progress.message === 'waiting' && !released) {
        released = true;
        void tmux.tmux('wait-for', '-S', 'go');
      }
    },
  } as never);
  assert.ok(!('error' in second), JSON.stringify(second));
  assert.equal(released, true, 'the wait did not answer before the new build printed');
  assert.equal(second.source, 'output');
  await tmux.tmux('wait-for', '-S', 'go'); // no-op when the build was released; never leaves it blocked

  // Nothing printed since that wait stopped: the line it found is not found again.
  const again = await julia.error('wait_for_text', { target, text: 'BUILD OK' });
  assert.equal(again.code, 'deadline');

  // The screen baseline still answers when this server never typed into a pane or waited on it.
  const other = await tmux.newSession('other');
  await tmux.typeAndWait(other, 'echo shown-$((6*7))');
  const seen = await julia.ok('wait_for_text', { target: await julia.target(other), text: 'shown-42' });
  assert.equal(seen.source, 'baseline');
});
