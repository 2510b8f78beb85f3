import { CelCheckEnvironment, checkCel } from '../../src/cel/checker';
import { CEL_GO_LENGTH, parseCel } from '../../src/cel/parse';
import { DYN, typeName } from '../../src/cel/types';

const ENV: CelCheckEnvironment = { subject: 'test rules', variables: new Map([['self', DYN], ['old', DYN]]), library: 'kubernetes' };

function check(expression: string, env: CelCheckEnvironment = ENV) {
  const { parsed, error } = parseCel(expression, { length: CEL_GO_LENGTH, bind: false });
  if (!parsed) throw new Error(error.formatted);
  return checkCel(parsed, env);
}

describe('checkCel: one checker, each caller its environment', () => {
  test('problems come with their kind and the name at fault', () => {
    const { problems } = check('isURL(self) && x.y && self.frob() && ns.Msg{f: 1} == self && size(self) == 1.0');
    expect(problems.map(({ kind, name, method }) => ({ kind, name, method }))).toEqual([
      { kind: 'unknown-function', name: 'isURL', method: undefined },
      { kind: 'undeclared', name: 'x', method: undefined },
      { kind: 'unknown-function', name: 'frob', method: true },
      { kind: 'unsupported', name: undefined, method: undefined },
      { kind: 'type', name: undefined, method: undefined },
    ]);
    expect(problems[3].error.message).toBe("unknown type 'ns.Msg': test rules cannot construct objects");
  });

  test('the declared variables an expression refers to; a comprehension variable hides one', () => {
    expect([...check('self.x == old.x').referenced]).toEqual(['self', 'old']);
    expect([...check('self.all(old, old > 0)').referenced]).toEqual(['self']);
  });

  test("the library decides the functions: cel-go's default has no cross-type ordering, no extensions, no dyn identifier", () => {
    const celGo: CelCheckEnvironment = { ...ENV, library: 'cel-go' };
    expect(check('1 < 1.5').problems).toEqual([]);
    expect(check('1 < 1.5', celGo).problems.map((p) => p.error.message)).toEqual(["found no matching overload for '_<_' applied to '(int, double)'"]);
    expect(check("self.lowerAscii() == 'a' && type(self) == dyn").problems).toEqual([]);
    expect(check("self.lowerAscii() == 'a' && type(self) == dyn", celGo).problems.map((p) => p.error.message)).toEqual([
      "unknown method 'lowerAscii'",
      "undeclared reference to 'dyn'",
    ]);
  });

  test('the result type is returned, not judged', () => {
    expect(check('self.x').problems).toEqual([]);
    expect(typeName(check("'a' + 'b'").resultType)).toBe('string');
  });
});
