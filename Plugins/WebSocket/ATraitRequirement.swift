// SwitchyardWebSocket is built only with the package trait WebSocket (`swift build --traits WebSocket`);
// without it, this error names the trait beside the failed imports. The compiler stops at the first
// missing module in file order, hence a name that sorts before every other source of the target.
#if !WebSocket
#error("SwitchyardWebSocket needs the package trait WebSocket: .package(…, traits: [\"WebSocket\"])")
#endif
