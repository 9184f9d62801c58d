/** The e2e stack runs beside a developer's portal: every port is the default plus this offset. */
export const E2E_PORT_OFFSET = 100;
export const E2E_GATEWAY_URL = `http://127.0.0.1:${8080 + E2E_PORT_OFFSET}`;
