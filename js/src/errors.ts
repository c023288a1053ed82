// The error type every failure of the API surfaces as: the runtime's status
// code plus a message that says what is wrong and where.

/**
 * Runtime status codes, mirroring `tri::Error` in cpp/runtime/core/error.h
 * (the numbers cross the wasm boundary through `lastErrorCode()`, so they must
 * stay in sync with that enum).
 */
export const ErrorCode = {
  Ok: 0x00,
  Internal: 0x01,
  InvalidState: 0x02,
  NotSupported: 0x10,
  NotImplemented: 0x11,
  InvalidArgument: 0x12,
  InvalidType: 0x13,
  OperatorMissing: 0x14,
  LimitExceeded: 0x15,
  MethodMissing: 0x16,
  NotFound: 0x20,
  MemoryAllocationFailed: 0x21,
  AccessFailed: 0x22,
  InvalidProgram: 0x23,
  InvalidExternalData: 0x24,
  ExternalDataMissing: 0x25,
  DelegateInvalidCompatibility: 0x30,
  DelegateMemoryAllocationFailed: 0x31,
  DelegateInvalidHandle: 0x32,
  BackendMissing: 0x33,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;

/** The name of a status code (`"InvalidArgument"`); `"Unknown"` for a number that is none. */
export function errorCodeName(code: number): ErrorCodeName | 'Unknown' {
  for (const [name, value] of Object.entries(ErrorCode)) {
    if (value === code) return name as ErrorCodeName;
  }
  return 'Unknown';
}

export class TridentError extends Error {
  /** A runtime status code (see {@link ErrorCode}). */
  readonly code: number;

  constructor(message: string, code: number = ErrorCode.Internal, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TridentError';
    this.code = code;
  }

  /** The symbolic name of {@link code}, e.g. `"OperatorMissing"`. */
  get codeName(): ErrorCodeName | 'Unknown' {
    return errorCodeName(this.code);
  }
}
