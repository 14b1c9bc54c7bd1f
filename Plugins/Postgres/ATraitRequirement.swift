// SwitchyardPostgres is built only with the package trait Postgres (`swift build --traits Postgres`);
// without it, this error names the trait beside the failed imports. The compiler stops at the first
// missing module in file order, hence a name that sorts before every other source of the target.
#if !Postgres
#error("SwitchyardPostgres needs the package trait Postgres: .package(…, traits: [\"Postgres\"])")
#endif
