/** All routes, matched in order (product/bulk before product/{id}). */
import type { RouteDefinition } from './route';
import { controlRoute } from './routes/control';
import { documentRoute } from './routes/documents';
import { labelRoutes } from './routes/labels';
import { merchantOrderRoutes } from './routes/merchant-orders';
import { orderControlRoutes } from './routes/order-controls';
import { orderRoutes } from './routes/orders';
import { publishRoutes } from './routes/publish';
import { shipmentRoutes } from './routes/shipments';
import { paymentRoutes } from './routes/payments';
import { productRoutes } from './routes/products';
import { tokenRoute } from './routes/token';

export const ROUTES: RouteDefinition[] = [
	tokenRoute,
	...publishRoutes,
	...productRoutes,
	...orderRoutes,
	...merchantOrderRoutes,
	...shipmentRoutes,
	...labelRoutes,
	...paymentRoutes,
	documentRoute,
	...orderControlRoutes,
	controlRoute,
];

export type RouteMatch =
	| { kind: 'route'; route: RouteDefinition; params: Record<string, string> }
	| { kind: 'method-not-allowed' }
	| { kind: 'none' };

function decode(value: string): string {
	try {
		return decodeURIComponent(value);
	} catch {
		return value;
	}
}

export function matchRoute(method: string, path: string): RouteMatch {
	let pathKnown = false;
	for (const route of ROUTES) {
		const match = route.pattern.exec(path);
		if (!match) continue;
		if (route.method !== '*' && route.method !== method) {
			pathKnown = true;
			continue;
		}
		const params: Record<string, string> = {};
		for (const [name, value] of Object.entries(match.groups ?? {})) params[name] = decode(value);
		return { kind: 'route', route, params };
	}
	return { kind: pathKnown ? 'method-not-allowed' : 'none' };
}
