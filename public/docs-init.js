// Renders GET /openapi.json of the same origin. validatorUrl null: no call to swagger.io's online validator.
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#docs",
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: false,
  persistAuthorization: false,
});
