"""Français (vouvoiement). Typographie française : espaces insécables avant ; : ? et dans « »."""

NAME = "Français"
PERCENT = "{}\u00a0%"
DECIMAL = ","
SINGULAR = (0, 1)

T = {
    "warner": ("Effectuez le tirage au sort en privé. Avec une probabilité de {p}, vous obtenez l'affirmation "
               "« J'ai cette caractéristique » ; sinon ({q}), vous obtenez l'affirmation « Je n'ai pas cette "
               "caractéristique ». Répondez « Oui » si l'affirmation obtenue est vraie pour vous et « Non » si "
               "elle est fausse. Personne d'autre ne sait quelle affirmation vous avez obtenue."),
    "forced_start": "Effectuez le tirage au sort en privé avant de répondre.",
    "forced_truth": "Avec une probabilité de {p}, répondez sincèrement à la question.",
    "forced_yes": "Avec une probabilité de {p}, répondez simplement « Oui ».",
    "forced_no": "Avec une probabilité de {p}, répondez simplement « Non ».",
    "forced_end": ("Personne d'autre ne voit le résultat du tirage : un « Oui » ou un « Non » ne révèle donc "
                   "jamais votre vraie réponse."),
    "unrelated": ("Effectuez le tirage au sort en privé. Avec une probabilité de {p}, répondez à la question "
                  "sensible ; sinon ({rest}), répondez à la place à une autre question, anodine (une question à "
                  "laquelle environ {q} des gens répondent « Oui », par exemple sur une date d'anniversaire). "
                  "Répondez sincèrement à la question que le tirage vous a attribuée ; personne ne sait laquelle "
                  "c'était."),
    "unrelated_unknown": ("Vous faites partie de l'un de deux groupes. Effectuez le tirage au sort en privé : "
                          "répondez à la question sensible avec une probabilité de {p1} dans le groupe 1 et de {p2} "
                          "dans le groupe 2 ; sinon, répondez à la question anodine. Répondez sincèrement à la "
                          "question que le tirage vous a attribuée."),
    "crosswise": ("Pensez à deux questions : la question sensible (A) et une question anodine (B) dont vous seul(e) "
                  "connaissez la réponse (environ {p} des gens répondent « Oui » à B). Ne dites pas vos réponses. "
                  "Cochez « {same} » si vos réponses à A et à B sont toutes deux « Oui » ou toutes deux « Non » ; "
                  "cochez « {different} » si l'une est « Oui » et l'autre « Non »."),
    "triangular": ("Pensez à deux questions : la question sensible (A) et une question anodine (B) dont vous "
                   "seul(e) connaissez la réponse (environ {p} des gens répondent « Oui » à B). Ne dites pas vos "
                   "réponses. Cochez « {at_least} » si votre réponse à A, à B ou aux deux est « Oui » ; cochez "
                   "« {both_no} » uniquement si vos deux réponses sont « Non »."),
    "mangat": ("Si vous avez cette caractéristique, répondez « Oui ». Sinon, effectuez le tirage au sort en privé : "
               "avec une probabilité de {p}, répondez sincèrement « Non » ; sinon ({rest}), répondez « Oui »."),
    "kuk": ("Vous avez deux paquets de cartes : {p1} des cartes du paquet 1 sont rouges, {p2} des cartes du "
            "paquet 2 sont rouges. Si vous avez cette caractéristique, utilisez le paquet 1 ; sinon, le paquet 2. "
            "Tirez {cards}. Indiquez seulement {report} ; ne dites jamais quel paquet vous avez utilisé."),
    "kuk_one": "une carte",
    "kuk_many": "{n} cartes, une à une, en remettant chacune dans le paquet",
    "kuk_colour": "sa couleur, rouge ou noire",
    "kuk_count": "combien d'entre elles étaient rouges",
    "sld": ("Vous faites partie de l'un de deux groupes. Effectuez le tirage au sort en privé : avec une "
            "probabilité de {p1} dans le groupe 1 ({p2} dans le groupe 2), répondez sincèrement à la question ; "
            "sinon, répondez « Oui ». L'analyse estime aussi combien de personnes interrogées ne suivent pas les "
            "consignes."),
    "cdm": ("Vous faites partie de l'un de deux groupes. Effectuez le tirage au sort en privé : avec une "
            "probabilité de {p1} dans le groupe 1 ({p2} dans le groupe 2), répondez simplement « Oui » ; sinon, "
            "répondez sincèrement à la question. L'analyse estime aussi combien de personnes interrogées "
            "répondent « Non » quel que soit le résultat du tirage."),
    "forced_multi": ("Effectuez le tirage au sort en privé. Avec une probabilité de {t}, donnez votre vraie "
                     "réponse. Sinon, le tirage décide de votre réponse : {rest}."),
    "forced_multi_part": "avec {p}, répondez « {c} »",
    "list_sep": " ; ",
    "krr": ("Effectuez le tirage au sort en privé. Avec une probabilité de {keep}, indiquez votre vraie catégorie ; "
            "chacune des autres catégories est indiquée avec une probabilité de {other}."),
    "unary": ("Pour chaque option séparément, effectuez le tirage au sort en privé : si l'option vous concerne, "
              "cochez-la avec une probabilité de {p} ; si elle ne vous concerne pas, cochez-la avec une "
              "probabilité de {q}."),
    "custom_start": "Effectuez le tirage au sort en privé.",
    "custom_line": "Une personne dont la situation réelle est « {s} » répond {parts}.",
    "custom_part": "« {r} » avec une probabilité de {p}",
    # the card
    "how": "Comment répondre : ",
    "randomizer": "Votre tirage au sort : ",
    "options_unary": "Options (cochez toutes celles que le tirage laisse cochées) : ",
    "answer_one": "Réponse (cochez une seule case) : ",
    "nobody": ("Personne, pas même l'équipe de recherche, ne peut savoir à partir de votre seule réponse ce qui "
               "est vrai pour vous."),
    "b_placeholder": "[écrivez ici la question anodine{about}]",
    "b_about": " à laquelle environ {p} des gens répondent « Oui »",
    "title": "Veuillez lire avant de répondre",
    # the randomizers
    "or": " ou ",
    "to": "{a} à {b}",
    "does_a": "répondez à la question A", "does_b": "répondez à la question B",
    "card_a": "Question A", "card_b": "Question B",
    "does_category": "répondez « {c} »",
    "does_truth": "répondez sincèrement à la question",
    "does_yes": "répondez « Oui »",
    "does_no": "répondez « Non »",
    "die": "Lancez en privé un dé équilibré à {sides} faces, sans que personne ne voie le résultat.",
    "die_if": "Si le dé affiche {faces}, {does}.",
    "dice": "Lancez en privé {n} dés équilibrés à {sides} faces, sans que personne ne les voie, et additionnez-les.",
    "dice_if": "Si le total est {faces}, {does}.",
    "cards": "Tirez en privé une carte du paquet mélangé de {total} cartes, puis remettez-la.",
    "card_truth": "Répondre sincèrement", "card_yes": "Dire oui", "card_no": "Dire non",
    "card_if": "Si la carte indique « {label} », {does}.",
    "coins": "Lancez en privé {n} pièces l'une après l'autre, sans que personne ne voie le résultat.",
    "coin": "Lancez en privé une pièce, sans que personne ne voie le résultat.",
    "heads": "face", "tails": "pile", "then": ", puis ",
    "coin_if": "Si vous obtenez d'abord {seq}, {does}.",
    "coin_all": "Si vous obtenez {seq}, {does}.",
    "exact": ("N'importe quel tirage au sort privé avec ces probabilités (par exemple une application de nombres "
              "aléatoires)."),
    "birthday": "L'anniversaire de votre mère est-il en {months} ?",
}

# online and interview fielding: why the answer is private, whose randomizer, the group question
T.update({
    'interview_randomizer': "Utilisez le tirage au sort que l'enquêteur ou l'enquêtrice vous remet, hors de sa vue, et n'annoncez jamais son résultat à voix haute : seule votre réponse est enregistrée.",
    'why_private_two': "Pourquoi votre réponse reste confidentielle : vous ne donnez votre réponse à aucune des deux questions, vous dites seulement si elles sont identiques (ou si au moins l'une est « Oui »), et vous seul(e) connaissez votre réponse à la question B. Personne, ni l'équipe de recherche ni l'enquête, ne peut en déduire ce qui est vrai pour vous.",
    'why_private_interview': "Pourquoi votre réponse reste confidentielle : l'enquêteur ou l'enquêtrice ne voit jamais le résultat de votre tirage, seulement votre réponse, et cette réponse peut venir du tirage plutôt que de la vérité. Personne, ni la personne qui vous interroge ni l'équipe de recherche, ne peut en déduire ce qui est vrai pour vous.",
    'why_private': "Pourquoi votre réponse reste confidentielle : l'enquête ne voit jamais votre pièce, votre dé ou votre date d'anniversaire, seulement la réponse que vous cochez, et cette réponse peut venir du tirage au sort plutôt que de la vérité. Personne, ni l'équipe de recherche ni le site de l'enquête, ne peut en déduire ce qui est vrai pour vous.",
    'own_randomizer': "Utilisez votre propre tirage au sort, à l'abri des regards (par exemple une pièce ou un dé que vous lancez chez vous) ; n'en utilisez jamais un sur ce site et n'y saisissez jamais son résultat.",
    'group_question': 'Quel jour du mois êtes-vous né(e) ?',
    'group_odd': 'Un jour impair (1, 3, 5 … 31) : groupe 1',
    'group_even': 'Un jour pair (2, 4, 6 … 30) : groupe 2',
    'group_note': 'Votre groupe détermine seulement laquelle des deux consignes ci-dessous vous suivez ; il ne dit rien de votre réponse.',
    'ticked': 'Cochée',
    'not_ticked': 'Non cochée',
})

LABELS = {
    "no": ("Non", "non"), "yes": ("Oui", "oui"),
    "different": ("Les réponses sont différentes", "différentes"),
    "same": ("Les deux réponses sont identiques", "identiques"),
    "both_no": ("Deux fois non", "deux non"), "at_least": ("Au moins un oui", "au moins un oui"),
    "black": ("Carte noire", "noire"), "red": ("Carte rouge", "rouge"),
    "red_one": "{k} carte rouge", "red_many": "{k} cartes rouges", "red_short": ("{k} rouge", "{k} rouges"),
}

WORDS = {"no": "non", "yes": "oui", "non-carrier": "sans la caractéristique", "carrier": "avec la caractéristique"}

MONTHS = ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
          "novembre", "décembre")


def _typography(text: str) -> str:
    for a, b in ((" ;", "\u00a0;"), (" :", "\u00a0:"), (" ?", "\u00a0?"), ("« ", "«\u00a0"), (" »", "\u00a0»")):
        text = text.replace(a, b)
    return text


T = {k: _typography(v) for k, v in T.items()}
LABELS = {k: tuple(map(_typography, v)) if isinstance(v, tuple) else _typography(v)
          for k, v in LABELS.items()}
