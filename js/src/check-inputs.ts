// Checks run()'s inputs against the method's signature before anything goes
// to the runtime, so a mistake is reported in the caller's terms: which
// method, which input, what was expected and what was given.

import { integerRange } from './dtype.js';
import { ErrorCode, TridentError } from './errors.js';
import { Tensor, describeValue, withArticle } from './tensor.js';
import { formatValueInfo, type MethodInfo, type ValueInfo } from './values.js';

export function checkInputs(method: MethodInfo, inputs: unknown): asserts inputs is unknown[] {
  const where = `run('${method.name}')`;
  if (!Array.isArray(inputs)) {
    throw new TridentError(`${where}: inputs must be an array, got ${describeValue(inputs)}`, ErrorCode.InvalidArgument);
  }
  if (inputs.length !== method.inputs.length) {
    const expected = method.inputs.map(formatValueInfo).join(', ');
    throw new TridentError(
      `${where}: expected ${method.inputs.length} input${method.inputs.length === 1 ? '' : 's'} (${expected}), got ${inputs.length}`,
      ErrorCode.InvalidArgument,
    );
  }
  method.inputs.forEach((spec, i) => checkInput(spec, inputs[i], `${where}: input ${i}`));
}

function checkInput(spec: ValueInfo, value: unknown, where: string): void {
  const mismatch = (): never => {
    throw new TridentError(`${where}: expected ${article(spec)}, got ${describeValue(value)}`, ErrorCode.InvalidArgument);
  };
  switch (spec.kind) {
    case 'Tensor':
      if (!(value instanceof Tensor)) return mismatch();
      return checkTensor(spec, value, where);
    case 'Int': {
      const [lo, hi] = integerRange('int64')!;
      const integral = typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value));
      if (!integral) return mismatch();
      const big = BigInt(value);
      if (big < lo || big > hi) {
        throw new TridentError(`${where}: Int ${big} is out of the int64 range`, ErrorCode.InvalidArgument);
      }
      return;
    }
    case 'Double':
      if (typeof value !== 'number') mismatch();
      return;
    case 'Bool':
      if (typeof value !== 'boolean') mismatch();
      return;
    case 'None':
      if (value !== null && value !== undefined) mismatch();
      return;
    default:
      throw new TridentError(`${where}: ${spec.kind} inputs cannot be passed from JavaScript yet`, ErrorCode.NotSupported);
  }
}

function checkTensor(spec: ValueInfo, tensor: Tensor, where: string): void {
  if (spec.dtype !== undefined && tensor.dtype !== spec.dtype) {
    throw new TridentError(`${where}: dtype ${tensor.dtype}, expected ${spec.dtype}`, ErrorCode.InvalidType);
  }
  const expected = spec.shape;
  if (expected === undefined) return;
  const got = tensor.shape;
  const fail = (why: string): never => {
    throw new TridentError(`${where}: shape [${got.join(', ')}] ${why}`, ErrorCode.InvalidArgument);
  };
  if (got.length !== expected.length) fail(`has rank ${got.length}, expected rank ${expected.length} ([${expected.join(', ')}])`);
  if (spec.dynamism === 'unbounded') return;
  const bounded = spec.dynamism === 'bounded';
  got.forEach((d, axis) => {
    const limit = expected[axis]!;
    if (bounded ? d > limit : d !== limit) {
      fail(bounded ? `exceeds the upper bound [${expected.join(', ')}] at dim ${axis}` : `does not match the expected [${expected.join(', ')}]`);
    }
  });
}

function article(spec: ValueInfo): string {
  if (spec.kind === 'Tensor') return `${withArticle(formatValueInfo(spec))} tensor`;
  if (spec.kind === 'Int') return 'an Int (integer number or bigint)';
  if (spec.kind === 'Double') return 'a Double (number)';
  if (spec.kind === 'Bool') return 'a Bool (boolean)';
  return `${spec.kind} (null)`;
}
