// The API's description, drawn by Swagger UI from this server's own copy of it (no CDN).
const root = document.getElementById("swagger-ui");
window.SwaggerUIBundle({ url: root.dataset.openapi, domNode: root, deepLinking: true });
