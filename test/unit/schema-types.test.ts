/**
 * The schema builders carry the type of what they accept, so a handler's arguments are inferred,
 * never written again; and that type is for the compiler only: the JSON a builder emits is the
 * contract's, key for key. The type half is checked by the type-check (a wrong `Same` fails it).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { array, type boolean, enumOf, integer, nullable, object, record, string, type Static } from '../../src/mcp/tools/schema.js';
import { choice, defaulted, field, item, listOf, optional, params } from '../../src/profiles/python/schema.js';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const holds = <T extends true>(): T => true as T;

test('an object schema types its required keys as present and the others as optional', () => {
  const input = object(
    {
      paneId: string(),
      lines: integer(),
      mode: enumOf(['a', 'b']),
      tags: array(string()),
      env: record(string()),
      limit: nullable('integer'),
    },
    ['paneId', 'mode'],
  );
  holds<
    Same<
      Static<typeof input>,
      { paneId: string; mode: 'a' | 'b'; lines?: number; tags?: string[]; env?: Record<string, string>; limit?: number | null }
    >
  >();
  assert.equal(
    JSON.stringify(input),
    '{"type":"object","properties":{"paneId":{"type":"string"},"lines":{"type":"integer"},"mode":{"type":"string","enum":["a","b"]},' +
      '"tags":{"type":"array","items":{"type":"string"}},"env":{"type":"object","additionalProperties":{"type":"string"}},' +
      '"limit":{"type":["integer","null"]}},"required":["paneId","mode"],"additionalProperties":false}',
  );
  holds<Same<Static<ReturnType<typeof boolean>>, boolean>>();
});

test("python's builders type pydantic's shapes: optional is T | null, choice its values, a list its items", () => {
  const operation = item({ keys: field('string', 'k'), enter: defaulted('boolean', true, 'e') }, ['keys'], 'one');
  const input = params(
    { ops: listOf(operation, 'ops'), pane: optional('string', 'p'), side: choice(['l', 'r'], 's', { nullable: true }) },
    ['ops'],
  );
  holds<Same<Static<typeof input>, { ops: { keys: string; enter?: boolean }[]; pane?: string | null; side?: 'l' | 'r' | null }>>();
  assert.equal(
    JSON.stringify(input),
    '{"additionalProperties":false,"properties":{"ops":{"description":"ops","items":{"additionalProperties":false,"description":"one",' +
      '"properties":{"keys":{"type":"string","description":"k"},"enter":{"default":true,"description":"e","type":"boolean"}},' +
      '"required":["keys"],"type":"object"},"type":"array"},"pane":{"anyOf":[{"type":"string"},{"type":"null"}],"default":null,' +
      '"description":"p"},"side":{"anyOf":[{"enum":["l","r"],"type":"string"},{"type":"null"}],"default":null,"description":"s"}},' +
      '"required":["ops"],"type":"object"}',
  );
});
