claude mcp add limina -- /path/to/limina/target/debug/limina --project /path/to/limina mcp --stdio
