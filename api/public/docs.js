// Renders /openapi.json with Swagger UI (loaded before this file from /docs/assets/swagger-ui-bundle.js).
/* global SwaggerUIBundle */
window.ui = SwaggerUIBundle({
  url: document.getElementById('swagger-ui').dataset.url,
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: false,
  persistAuthorization: false,
});
