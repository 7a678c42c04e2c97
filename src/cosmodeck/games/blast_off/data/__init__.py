"""Default data of Blast Off!: default.json (deck + missions) and missions.json (the 16 missions)."""
