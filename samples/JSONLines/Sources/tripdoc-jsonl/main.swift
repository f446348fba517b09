import TripDocCommandLine
import TripDocJSONLines

// tripdoc's command, with JSON Lines in every subcommand.
TripDocTool.main(commandName: "tripdoc-jsonl", adding: [JSONLinesFormat()])
