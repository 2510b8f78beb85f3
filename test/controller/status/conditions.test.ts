import { T, TT } from './support';
import {
  conditionTime,
  isValidReason,
  MAX_CONDITION_MESSAGE_LENGTH,
  removeStatusCondition,
  setStatusCondition,
  storedConditions,
  truncateText,
} from '../../../src/controller/status/conditions';

const validated = { type: 'Validated', status: 'True', reason: 'ValidationPassed', message: 'Schema validation passed' } as const;
const readyFalse = { type: 'Ready', status: 'False', reason: 'DeploymentInProgress', message: 'Deployment is in progress' } as const;
const readyTrue = { type: 'Ready', status: 'True', reason: 'DeploymentReady', message: 'All replicas are ready' } as const;

describe('conditionTime', () => {
  test('is RFC 3339 in UTC without fractional seconds, as metav1.Time serialises', () => {
    expect(conditionTime(new Date('2026-03-01T10:00:00.250Z'))).toBe('2026-03-01T10:00:00Z');
    expect(conditionTime(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)))).toBe('2026-01-02T03:04:05Z');
  });
});

describe('setStatusCondition', () => {
  test('appends an absent condition with lastTransitionTime now and the generation', () => {
    expect(setStatusCondition([], validated, 3, T[0])).toEqual([{ ...validated, observedGeneration: 3, lastTransitionTime: TT[0] }]);
  });

  test('keeps the order of first setting: a new type goes last, an existing one stays in place', () => {
    let list = setStatusCondition([], validated, 1, T[0]);
    list = setStatusCondition(list, readyFalse, 1, T[0]);
    list = setStatusCondition(list, { ...validated, message: 'again' }, 1, T[1]);
    expect(list.map((c) => c.type)).toEqual(['Validated', 'Ready']);
  });

  test('updates reason, message and observedGeneration without moving lastTransitionTime when the status is unchanged', () => {
    const list = setStatusCondition([], readyFalse, 1, T[0]);
    const updated = setStatusCondition(list, { ...readyFalse, reason: 'ResourceNotFound', message: 'waiting' }, 2, T[1]);
    expect(updated).toEqual([{ type: 'Ready', status: 'False', reason: 'ResourceNotFound', message: 'waiting', observedGeneration: 2, lastTransitionTime: TT[0] }]);
  });

  test('moves lastTransitionTime only when the status flips', () => {
    let list = setStatusCondition([], readyFalse, 1, T[0]);
    list = setStatusCondition(list, readyTrue, 1, T[1]);
    expect(list[0].lastTransitionTime).toBe(TT[1]);
    list = setStatusCondition(list, readyTrue, 1, T[2]);
    expect(list[0].lastTransitionTime).toBe(TT[1]);
    list = setStatusCondition(list, readyFalse, 1, T[3]);
    expect(list[0].lastTransitionTime).toBe(TT[3]);
  });

  test('does not modify the list it is given', () => {
    const original = [{ ...readyFalse, lastTransitionTime: TT[0], observedGeneration: 1 }];
    const copy = structuredClone(original);
    setStatusCondition(original, readyTrue, 2, T[1]);
    expect(original).toEqual(copy);
  });

  test('a stored condition without a lastTransitionTime gets now', () => {
    expect(setStatusCondition([{ ...readyFalse }], readyFalse, 1, T[2])[0].lastTransitionTime).toBe(TT[2]);
  });

  test('without a generation, observedGeneration is left out (Go writes 0, which is omitted)', () => {
    const list = setStatusCondition([{ ...readyFalse, observedGeneration: 4, lastTransitionTime: TT[0] }], readyFalse, undefined, T[1]);
    expect(list[0]).not.toHaveProperty('observedGeneration');
    expect(setStatusCondition([], readyFalse, undefined, T[1])[0]).not.toHaveProperty('observedGeneration');
  });

  test('truncates a message longer than metav1.Condition allows', () => {
    const [c] = setStatusCondition([], { ...readyFalse, message: 'x'.repeat(100_000) }, 1, T[0]);
    expect((c.message as string).length).toBe(MAX_CONDITION_MESSAGE_LENGTH);
    expect(c.message).toMatch(/\.\.\. \(truncated\)$/);
  });
});

describe('removeStatusCondition', () => {
  test('removes the condition of the type and keeps the others in order', () => {
    const list = [{ type: 'A' }, { type: 'GatewayReady' }, { type: 'B' }];
    expect(removeStatusCondition(list, 'GatewayReady')).toEqual([{ type: 'A' }, { type: 'B' }]);
    expect(removeStatusCondition(list, 'Absent')).toEqual(list);
  });
});

describe('storedConditions', () => {
  test('reads the list of a status', () => {
    const list = [{ ...validated, lastTransitionTime: TT[0] }];
    expect(storedConditions({ conditions: list })).toEqual(list);
  });

  test('fails when a status is not an object or its conditions not a list: nothing is read', () => {
    for (const status of [undefined, null, 'Running', 42, [], { conditions: 'Ready' }, { conditions: { Ready: {} } }]) {
      expect(storedConditions(status)).toEqual([]);
    }
  });

  test('fails when entries are malformed or repeat a type: those are dropped, the first of a type kept', () => {
    const first = { type: 'Ready', status: 'True' };
    expect(storedConditions({ conditions: [null, 'Ready', 7, {}, { type: '' }, { type: 3 }, first, { type: 'Ready', status: 'False' }, { type: 'Other' }] }))
      .toEqual([first, { type: 'Other' }]);
  });
});

describe('truncateText', () => {
  test('leaves a text within the limit alone', () => {
    expect(truncateText('short', 10)).toBe('short');
    expect(truncateText('x'.repeat(MAX_CONDITION_MESSAGE_LENGTH))).toHaveLength(MAX_CONDITION_MESSAGE_LENGTH);
  });

  test('cuts a longer text to the limit with a marker', () => {
    expect(truncateText('abcdefghijklmnopqrstuvwxyz', 20)).toBe('abcde... (truncated)');
  });

  test('never splits a surrogate pair', () => {
    const text = 'abcd😀' + 'x'.repeat(40);
    const cut = truncateText(text, 20);
    expect(cut).toBe('abcd... (truncated)');
    expect(cut.length).toBeLessThanOrEqual(20);
  });
});

describe('isValidReason', () => {
  test('accepts CamelCase reasons with the characters metav1.Condition allows', () => {
    for (const r of ['Ready', 'HTTPRouteFailed', 'A', 'a_b,c:d', 'X1']) expect(isValidReason(r)).toBe(true);
  });

  test('fails when a reason is empty, too long, not a string or has other characters', () => {
    for (const r of ['', ' Ready', 'Not Ready', 'Ready-', 'Ready:', '1Ready', 'R'.repeat(1025), undefined, 3]) expect(isValidReason(r)).toBe(false);
  });
});
