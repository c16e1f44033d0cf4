"""One maintenance job a file; ``wave_agent.maintenance.runner.JOBS`` lists them in run order."""
