// The API's description, drawn by Swagger UI from this server's own copy of it (no CDN).
const root = document.getElementById("swagger-ui");
window.SwaggerUIBundle({ url: root.dataset.openapi, domNode: root, deepLinking: true });

// Swagger UI puts each operation's deep link inside the button that opens it: a control in a
// control, which a keyboard reaches twice and a screen reader announces oddly. The button
// already opens the operation and sets the same address, so the inner link stops being one
// (its address kept aside; an attribute only: Swagger UI keeps drawing its own elements).
function untab(scope) {
  for (const link of scope.querySelectorAll(".opblock-summary-control a[href]")) {
    link.dataset.href = link.getAttribute("href");
    link.removeAttribute("href");
  }
}
new MutationObserver(() => untab(root)).observe(root, { childList: true, subtree: true });
untab(root);
