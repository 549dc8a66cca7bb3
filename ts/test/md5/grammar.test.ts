/**
 * The MD5 grammar builder (parser-base.ts): entries keyed by state name, checked when a parser module loads, so a
 * state added to a parser's enum without its entry fails at once instead of giving an empty message later.
 */
import { describe, expect, test } from 'vitest';
import { md5Grammar, type StateSpec } from '../../src/formats/md5/parser-base.js';

enum Keyword {
  MD5Version,
  commandline,
  numThings,
  things,
}

enum State {
  VersionKw,
  Version,
  CommandlineKw,
  Commandline,
  NumThingsKw,
  NumThings,
  ThingsKw,
  ThingsOpen,
  Done,
}

const OWN: { readonly [K in State]?: StateSpec<State> } = {
  [State.NumThingsKw]: { keyword: Keyword.numThings, next: State.NumThings },
  [State.NumThings]: { expect: 'the thing count', numeric: true },
  [State.ThingsKw]: { expect: "'things' or end of input", keyword: Keyword.things },
  [State.ThingsOpen]: { expect: "'{' after 'things'", punct: '{', next: State.Done },
  [State.Done]: { expect: 'nothing (parser finished)' },
};

const build = (grammar: { readonly [K in State]?: StateSpec<State> }) =>
  md5Grammar<State>({ name: 'ThingParser', keywords: Keyword, fileLevelLast: Keyword.things, states: State, afterHeader: State.NumThingsKw, grammar });

describe('md5Grammar', () => {
  test('tables keyed by state: the header from the base, a keyword state wants its keyword, each names its next', () => {
    const g = build(OWN);
    expect(g.header).toEqual({
      versionKw: State.VersionKw,
      version: State.Version,
      commandlineKw: State.CommandlineKw,
      commandline: State.Commandline,
      next: State.NumThingsKw,
    });
    expect(g.keywordNames).toEqual(['MD5Version', 'commandline', 'numThings', 'things']);
    expect(g.expect[State.CommandlineKw]).toBe("'commandline'");
    expect([g.keyword[State.CommandlineKw], g.next[State.CommandlineKw]]).toEqual([Keyword.commandline, State.Commandline]);
    expect(g.expect[State.NumThingsKw]).toBe("'numThings'");
    expect([g.keyword[State.NumThingsKw], g.next[State.NumThingsKw]]).toEqual([Keyword.numThings, State.NumThings]);
    expect([g.expect[State.ThingsKw], g.keyword[State.ThingsKw], g.next[State.ThingsKw]]).toEqual([
      "'things' or end of input",
      Keyword.things,
      -1,
    ]);
    expect([g.punct[State.ThingsOpen], g.next[State.ThingsOpen]]).toEqual([0x7b, State.Done]);
    expect([...g.numeric]).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 0]);
    expect(g.keywords.index(Uint8Array.from('numThings', (c) => c.charCodeAt(0)), 0, 9)).toBe(Keyword.numThings);
  });

  test('a state without an entry, an entry for a header state, or an entry that says nothing fails by name', () => {
    const { [State.NumThings]: _, ...missing } = OWN;
    expect(() => build(missing)).toThrow('ThingParser grammar: no entry for state NumThings');
    expect(() => build({ ...OWN, [State.Version]: { expect: 'ten' } })).toThrow('ThingParser grammar: Version is a header state');
    expect(() => build({ ...OWN, [State.Done]: {} })).toThrow('ThingParser grammar: state Done says nothing it expects');
  });
});
