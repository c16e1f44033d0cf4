"""One maintenance job a file; ``wave_agent.ops.maintenance.runner.JOBS`` lists them in run order."""
