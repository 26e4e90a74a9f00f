import { expect } from 'vitest';
import { ColliderscopeError } from '../../../src/errors';

/** The error a call throws (failing the test when it throws none, or something other than a ColliderscopeError). */
export function errorOf(call: () => unknown): ColliderscopeError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(ColliderscopeError);
    return error as ColliderscopeError;
  }
  throw new Error('expected an error, none was thrown');
}
