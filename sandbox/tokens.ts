/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox code (the service twin tests and the bench run) and never loaded by n8n: it may use Node modules (docs/architecture.md, Toolchain). */
/** Opaque bearer tokens with a real-time lifetime. */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';

interface IssuedToken {
	clientId: string;
	expiresAt: number;
}

/** Expired tokens are swept once this many are held, so long runs stay bounded. */
const SWEEP_THRESHOLD = 10_000;

export class TokenStore {
	private readonly tokens = new Map<string, IssuedToken>();

	constructor(private lifetimeSeconds: number) {
		this.setLifetime(lifetimeSeconds);
	}

	get lifetime(): number {
		return this.lifetimeSeconds;
	}

	/** Applies to tokens issued from now on. */
	setLifetime(seconds: number): void {
		if (!(seconds > 0) || !Number.isFinite(seconds)) throw new Error('token lifetime must be a positive number of seconds');
		this.lifetimeSeconds = seconds;
	}

	/**
	 * A new token for the client. With `onlyNewestValid` (the variant `onlyNewestTokenValid`) the
	 * client's earlier tokens stop working at once, as services that keep one token per client do.
	 */
	issue(clientId: string, onlyNewestValid = false): string {
		if (this.tokens.size >= SWEEP_THRESHOLD) this.sweep();
		if (onlyNewestValid) {
			for (const [token, issued] of this.tokens) if (issued.clientId === clientId) this.tokens.delete(token);
		}
		const token = randomBytes(32).toString('base64url');
		this.tokens.set(token, { clientId, expiresAt: performance.now() + this.lifetimeSeconds * 1000 });
		return token;
	}

	/** The client a live token belongs to; undefined for unknown or expired tokens. */
	clientOf(token: string): string | undefined {
		const issued = this.tokens.get(token);
		if (!issued) return undefined;
		if (issued.expiresAt <= performance.now()) {
			this.tokens.delete(token);
			return undefined;
		}
		return issued.clientId;
	}

	expireAll(): void {
		this.tokens.clear();
	}

	private sweep(): void {
		const now = performance.now();
		for (const [token, issued] of this.tokens) if (issued.expiresAt <= now) this.tokens.delete(token);
	}
}
