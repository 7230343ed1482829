/* eslint-disable @n8n/community-nodes/no-restricted-imports -- benchmark code (`npm run bench`) and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/**
 * A full garbage collection on demand, without starting Node with --expose-gc: each timed or
 * measured run starts from a clean heap, so that no run pays for the garbage of the one before.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

export function collectGarbage(): void {
	gc();
	gc();
}
