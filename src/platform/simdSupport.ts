import { ModuleBuilder } from './wasmEmitter';
import { SimdOp, ValueType } from './wasmOpcodes';

let supported: boolean | undefined;

/**
 * Whether this engine runs WebAssembly with 128-bit SIMD: asks WebAssembly.validate about a tiny
 * module that adds two f32x4 values. False where WebAssembly is missing or forbidden, so callers fall
 * back to their TypeScript path.
 */
export function isWasmSimdSupported(): boolean {
  if (supported === undefined) {
    try {
      const module = new ModuleBuilder();
      const f = module.function([ValueType.v128, ValueType.v128], [ValueType.v128], 'add');
      f.localGet(0).localGet(1).simd(SimdOp.f32x4Add);
      supported = typeof WebAssembly === 'object' && WebAssembly.validate(module.build());
    } catch {
      supported = false;
    }
  }
  return supported;
}
