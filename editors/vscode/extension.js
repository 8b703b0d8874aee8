// rulesdsl for VS Code: starts `rulesdsl lsp` for .rules files; the grammar in syntaxes/ highlights them.
"use strict";
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("rulesdsl").get("command", ["rulesdsl", "lsp"]);
  const server = { command, args, transport: TransportKind.stdio };
  client = new LanguageClient("rulesdsl", "rulesdsl", { run: server, debug: server }, {
    documentSelector: [{ scheme: "file", language: "rulesdsl" }],
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
