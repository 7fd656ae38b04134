"""English: the card's phrases and the randomizer's sentences (the designs' instructions and
answer labels are :mod:`dpdesk.mechanisms.rr.wording.english`, word for word)."""

NAME = "English"
PERCENT = "{}%"
DECIMAL = "."

T = {
    # the card
    "how": "How to answer: ",
    "randomizer": "Your randomizer: ",
    "options_unary": "Options (tick any that the randomizer leaves ticked): ",
    "answer_one": "Answer (tick one): ",
    "nobody": "Nobody, including the researchers, can tell from your answer alone what is true for you.",
    "b_placeholder": "[write the harmless question{about} here]",
    "b_about": " that about {p} of people answer 'yes'",
    "title": "Please read before you answer",
    # the randomizers
    "or": " or ",
    "to": "{a} to {b}",
    "does_a": "answer question A", "does_b": "answer question B",
    "card_a": "question A", "card_b": "question B",
    "does_category": "answer '{c}'",
    "does_truth": "answer the question truthfully",
    "does_yes": "answer 'yes'",
    "does_no": "answer 'no'",
    "die": "Roll a fair {sides}-sided die privately, where nobody can see it.",
    "die_if": "If it shows {faces}, {does}.",
    "dice": "Roll {n} fair {sides}-sided dice privately, where nobody can see them, and add them up.",
    "dice_if": "If the total is {faces}, {does}.",
    "cards": "Draw one card privately from the shuffled deck of {total} cards and put it back.",
    "card_truth": "answer truthfully", "card_yes": "say yes", "card_no": "say no",
    "card_if": "If it says '{label}', {does}.",
    "coins": "Toss {n} coins privately, one after the other, where nobody can see them.",
    "coin": "Toss a coin privately, where nobody can see it.",
    "heads": "heads", "tails": "tails", "then": ", then ",
    "coin_if": "If you toss {seq} first, {does}.",
    "coin_all": "If you toss {seq}, {does}.",
    "exact": "Any private randomizer with these probabilities (for example a random-number app).",
    "birthday": "Is your mother's birthday in {months}?",
}

# online and interview fielding: why the answer is private, whose randomizer, the group question
T.update({
    'interview_randomizer': "Use the randomizer the interviewer gives you, out of the interviewer's sight, and never say its result aloud: only your answer is recorded.",
    'why_private_two': "Why your answer is private: you never say your answer to either question, only whether they are the same (or whether at least one is 'yes'), and only you know your answer to question B. Nobody, not the researchers and not the survey, can tell from it what is true for you.",
    'why_private_interview': 'Why your answer is private: the interviewer never sees your randomizer, only the answer you give, and that answer can come from the randomizer instead of the truth. Nobody, not the interviewer and not the researchers, can tell from it what is true for you.',
    'why_private': 'Why your answer is private: the survey never sees your coin, die or birthday, only the answer you tick, and that answer can come from the randomizer instead of the truth. Nobody, not the researchers and not the survey website, can tell from it what is true for you.',
    'own_randomizer': 'Use your own randomizer, out of sight of anyone else (for example a coin you toss or a die you roll at home); never use one on this website, and never type its result here.',
    'group_question': 'On which day of the month is your birthday?',
    'group_odd': 'An odd day (1, 3, 5 ... 31): group 1',
    'group_even': 'An even day (2, 4, 6 ... 30): group 2',
    'group_note': 'Your group only decides which of the two sets of instructions below you follow; it says nothing about your answer.',
    'ticked': 'Ticked',
    'not_ticked': 'Not ticked',
})

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
