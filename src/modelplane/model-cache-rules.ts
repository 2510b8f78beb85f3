/**
 * Rules of modelplane's ModelCache that both faces check: the typed `ModelplaneModelCache` on its
 * `size`, the AI Runway provider on the `modelCache` volume's size. Each takes the path to blame
 * and the value as the user wrote it.
 */
import { MAX_CACHE_SIZE_GIB, MIN_CACHE_SIZE_GIB } from './limits';
import { FieldError, invalid } from '../core/field-error';

/** `huggingFace.sizeGiB`: 1 to 100000 whole GiB (NaN, an unreadable size, is refused too). */
export function cacheSizeErrors(sizeGiB: number, path: string, written: unknown): FieldError[] {
  if (sizeGiB >= MIN_CACHE_SIZE_GIB && sizeGiB <= MAX_CACHE_SIZE_GIB) return [];
  return [invalid(path, written, `a modelplane ModelCache holds ${MIN_CACHE_SIZE_GIB} to ${MAX_CACHE_SIZE_GIB} GiB (the size is rounded up to whole GiB)`)];
}
