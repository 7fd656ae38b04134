"""The survey-design wizard: question, design, randomizer, meaning, instructions."""
