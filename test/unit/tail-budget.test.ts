/**
 * tailBudget, the newest rows within a line and a byte budget, held to a plain reference that
 * encodes every row: whatever shortcut it takes when the rows clearly fit, the rows kept, the count
 * dropped and the clipped row must be exactly the reference's, for ASCII, two-, three- and four-byte
 * characters and lone surrogates, right at the byte boundary and around it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { tailBudget } from '../../src/core/read/capture.js';

/** Whole rows from the newest back, while each with its newline still fits (no clipping). */
function reference(lines: readonly string[], maxLines: number, maxBytes: number) {
  let first = Math.max(0, lines.length - maxLines);
  let bytes = 0;
  for (let i = lines.length - 1; i >= first; i--) {
    const size = Buffer.byteLength(lines[i]!, 'utf8') + 1;
    if (bytes + size > maxBytes) {
      first = i + 1;
      break;
    }
    bytes += size;
  }
  return { lines: lines.slice(first), droppedLines: first };
}

const PIECES = ['a', 'é', '中', '😀', '\ud800', ' ', 'xyz'];

test('rows that fit are all kept, the same whether or not the bound decides it', () => {
  const lines = ['one', 'two', 'three'];
  assert.deepEqual(tailBudget(lines, 10), { lines, droppedLines: 0 });
  assert.deepEqual(tailBudget(lines, 2), { lines: ['two', 'three'], droppedLines: 1 });
  assert.deepEqual(tailBudget(lines, 10, Infinity), { lines, droppedLines: 0 });
  // 'two\n' + 'three\n' is 10 bytes exactly: both fit, 'one' does not.
  assert.deepEqual(tailBudget(lines, 10, 10), { lines: ['two', 'three'], droppedLines: 1 });
  assert.deepEqual(tailBudget(lines, 10, 9), { lines: ['three'], droppedLines: 2 });
});

test('multi-byte rows at the byte boundary are counted in UTF-8, not in UTF-16 units', () => {
  // Each '😀' row is 4 bytes and a newline; its UTF-16 length (2) times 3 overestimates it.
  const lines = ['😀', '😀', '😀'];
  assert.deepEqual(tailBudget(lines, 10, 15), { lines, droppedLines: 0 });
  assert.deepEqual(tailBudget(lines, 10, 14), { lines: ['😀', '😀'], droppedLines: 1 });
});

test('any rows, lines and byte budget: exactly what encoding every row keeps', () => {
  const row = fc.array(fc.constantFrom(...PIECES), { maxLength: 7 }).map((pieces) => pieces.join(''));
  const input = fc
    .tuple(fc.array(row, { maxLength: 11 }), fc.nat(13), fc.double({ min: 0, max: 1, noNaN: true }))
    .map(([lines, maxLines, share]) => {
      const total = lines.reduce((sum, line) => sum + Buffer.byteLength(line, 'utf8') + 1, 0);
      return { lines, maxLines, maxBytes: Math.floor(share * (total + 4)) };
    });
  fc.assert(
    fc.property(input, ({ lines, maxLines, maxBytes }) => {
      assert.deepEqual(tailBudget(lines, maxLines, maxBytes), reference(lines, maxLines, maxBytes));
    }),
    { numRuns: 3000 },
  );
});

test('with clipRow, the row that does not fit keeps its tail behind the mark', () => {
  const kept = tailBudget(['a'.repeat(100), 'end'], 10, 20, { clipRow: true });
  assert.equal(kept.droppedLines, 0);
  assert.equal(kept.clippedRow, true);
  assert.deepEqual(kept.lines[1], 'end');
  assert.ok(kept.lines[0]!.startsWith('…') && kept.lines[0]!.endsWith('a'));
  assert.ok(Buffer.byteLength(kept.lines.join('\n') + '\n', 'utf8') <= 20);
});
