import { toEpochMs } from './dates';
import type { SandboxClockControl } from './types';

/** Sandbox time: starts where asked and moves with real time; tests may set or advance it. */
export class SandboxClock implements SandboxClockControl {
	private offsetMs: number;

	constructor(start?: string | number | Date) {
		this.offsetMs = start === undefined ? 0 : toEpochMs(start) - Date.now();
	}

	now(): Date {
		return new Date(this.nowMs());
	}

	nowMs(): number {
		return Date.now() + this.offsetMs;
	}

	set(date: string | number | Date): void {
		this.offsetMs = toEpochMs(date) - Date.now();
	}

	advance(ms: number): void {
		if (!Number.isFinite(ms)) throw new Error('advance needs a finite number of milliseconds');
		this.offsetMs += ms;
	}
}
