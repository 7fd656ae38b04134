"""Español (usted). Comillas angulares y espacio antes de %, como recomienda la RAE."""

NAME = "Español"
PERCENT = "{}\u00a0%"
DECIMAL = ","
SINGULAR = (1,)

T = {
    "warner": ("Realice el sorteo en privado. Con una probabilidad del {p} recibe la afirmación «Tengo esta "
               "característica»; en caso contrario ({q}), la afirmación «No tengo esta característica». Responda "
               "«Sí» si la afirmación que recibió es cierta en su caso y «No» si es falsa. Nadie más sabe qué "
               "afirmación recibió."),
    "forced_start": "Realice el sorteo en privado antes de responder.",
    "forced_truth": "Con una probabilidad del {p}, responda a la pregunta con sinceridad.",
    "forced_yes": "Con una probabilidad del {p}, responda simplemente «Sí».",
    "forced_no": "Con una probabilidad del {p}, responda simplemente «No».",
    "forced_end": ("Nadie más ve el resultado del sorteo, así que un «Sí» o un «No» nunca revela su verdadera "
                   "respuesta."),
    "unrelated": ("Realice el sorteo en privado. Con una probabilidad del {p}, responda a la pregunta delicada; en "
                  "caso contrario ({rest}), responda en su lugar a otra pregunta, inofensiva (una a la que alrededor "
                  "del {q} de las personas responde «Sí», por ejemplo sobre un cumpleaños). Responda con sinceridad "
                  "a la pregunta que le haya tocado; nadie sabe cuál fue."),
    "unrelated_unknown": ("Usted pertenece a uno de dos grupos. Realice el sorteo en privado: responda a la pregunta "
                          "delicada con una probabilidad del {p1} en el grupo 1 y del {p2} en el grupo 2; en caso "
                          "contrario, responda a la pregunta inofensiva. Responda con sinceridad a la pregunta que "
                          "le haya tocado."),
    "crosswise": ("Piense en dos preguntas: la pregunta delicada (A) y una pregunta inofensiva (B) cuya respuesta "
                  "solo usted conoce (alrededor del {p} de las personas responde «Sí» a B). No diga sus respuestas. "
                  "Marque «{same}» si sus respuestas a A y a B son ambas «Sí» o ambas «No»; marque «{different}» si "
                  "una es «Sí» y la otra «No»."),
    "triangular": ("Piense en dos preguntas: la pregunta delicada (A) y una pregunta inofensiva (B) cuya respuesta "
                   "solo usted conoce (alrededor del {p} de las personas responde «Sí» a B). No diga sus respuestas. "
                   "Marque «{at_least}» si su respuesta a A, a B o a ambas es «Sí»; marque «{both_no}» solo si las "
                   "dos respuestas son «No»."),
    "mangat": ("Si usted tiene esta característica, responda «Sí». Si no la tiene, realice el sorteo en privado: "
               "con una probabilidad del {p}, responda «No» con sinceridad; en caso contrario ({rest}), responda "
               "«Sí»."),
    "kuk": ("Tiene dos barajas: en la baraja 1, el {p1} de las cartas son rojas; en la baraja 2, el {p2}. Si usted "
            "tiene esta característica, use la baraja 1; si no, la baraja 2. Saque {cards}. Indique solo {report}; "
            "nunca diga qué baraja usó."),
    "kuk_one": "una carta",
    "kuk_many": "{n} cartas, una a una, devolviendo cada una a la baraja",
    "kuk_colour": "su color, rojo o negro",
    "kuk_count": "cuántas de ellas eran rojas",
    "sld": ("Usted pertenece a uno de dos grupos. Realice el sorteo en privado: con una probabilidad del {p1} en el "
            "grupo 1 (del {p2} en el grupo 2), responda a la pregunta con sinceridad; en caso contrario, responda "
            "«Sí». El análisis también estima cuántas personas no siguen las instrucciones."),
    "cdm": ("Usted pertenece a uno de dos grupos. Realice el sorteo en privado: con una probabilidad del {p1} en el "
            "grupo 1 (del {p2} en el grupo 2), responda simplemente «Sí»; en caso contrario, responda a la "
            "pregunta con sinceridad. El análisis también estima cuántas personas responden «No» diga lo que diga "
            "el sorteo."),
    "forced_multi": ("Realice el sorteo en privado. Con una probabilidad del {t}, dé su verdadera respuesta. En caso "
                     "contrario, el sorteo decide su respuesta: {rest}."),
    "forced_multi_part": "con el {p}, responda «{c}»",
    "krr": ("Realice el sorteo en privado. Con una probabilidad del {keep}, indique su verdadera categoría; cada una "
            "de las demás categorías se indica con una probabilidad del {other}."),
    "unary": ("Para cada opción por separado, realice el sorteo en privado: si la opción se aplica a usted, márquela "
              "con una probabilidad del {p}; si no se aplica, márquela con una probabilidad del {q}."),
    "custom_start": "Realice el sorteo en privado.",
    "custom_line": "Quien en realidad pertenece al grupo «{s}» responde {parts}.",
    "custom_part": "«{r}» con una probabilidad del {p}",
    # the card
    "how": "Cómo responder: ",
    "randomizer": "Su sorteo: ",
    "options_unary": "Opciones (marque todas las que el sorteo deje marcadas): ",
    "answer_one": "Respuesta (marque una): ",
    "nobody": ("Nadie, ni siquiera el equipo de investigación, puede saber solo a partir de su respuesta qué es "
               "cierto en su caso."),
    "b_placeholder": "[escriba aquí la pregunta inofensiva{about}]",
    "b_about": " a la que alrededor del {p} de las personas responde «Sí»",
    "title": "Lea esto antes de responder",
    # the randomizers
    "or": " o ",
    "to": "un número del {a} al {b}",
    "does_a": "responda a la pregunta A", "does_b": "responda a la pregunta B",
    "card_a": "Pregunta A", "card_b": "Pregunta B",
    "does_category": "responda «{c}»",
    "does_truth": "responda a la pregunta con sinceridad",
    "does_yes": "responda «Sí»",
    "does_no": "responda «No»",
    "die": "Lance en privado un dado equilibrado de {sides} caras, sin que nadie vea el resultado.",
    "die_if": "Si sale {faces}, {does}.",
    "dice": "Lance en privado {n} dados equilibrados de {sides} caras, sin que nadie los vea, y sume los resultados.",
    "dice_if": "Si la suma es {faces}, {does}.",
    "cards": "Saque en privado una carta de la baraja mezclada de {total} cartas y devuélvala.",
    "card_truth": "Responder con sinceridad", "card_yes": "Decir sí", "card_no": "Decir no",
    "card_if": "Si la carta dice «{label}», {does}.",
    "coins": "Lance en privado {n} monedas, una tras otra, sin que nadie vea el resultado.",
    "coin": "Lance en privado una moneda, sin que nadie vea el resultado.",
    "heads": "cara", "tails": "cruz", "then": ", luego ",
    "coin_if": "Si primero sale {seq}, {does}.",
    "coin_all": "Si sale {seq}, {does}.",
    "exact": "Cualquier sorteo privado con estas probabilidades (por ejemplo, una aplicación de números aleatorios).",
    "birthday": "¿El cumpleaños de su madre es en {months}?",
}

# online and interview fielding: why the answer is private, whose randomizer, the group question
T.update({
    'interview_randomizer': 'Use el sorteo que le entregue la persona entrevistadora, fuera de su vista, y nunca diga en voz alta el resultado: solo se registra su respuesta.',
    'why_private_two': 'Por qué su respuesta es confidencial: usted nunca dice su respuesta a ninguna de las dos preguntas, solo si son iguales (o si al menos una es «Sí»), y solo usted conoce su respuesta a la pregunta B. Nadie, ni el equipo de investigación ni la encuesta, puede saber a partir de ella qué es cierto en su caso.',
    'why_private_interview': 'Por qué su respuesta es confidencial: la persona entrevistadora nunca ve su sorteo, solo la respuesta que usted da, y esa respuesta puede venir del sorteo en lugar de la verdad. Nadie, ni la persona entrevistadora ni el equipo de investigación, puede saber a partir de ella qué es cierto en su caso.',
    'why_private': 'Por qué su respuesta es confidencial: la encuesta nunca ve su moneda, su dado ni su fecha de cumpleaños, solo la respuesta que usted marca, y esa respuesta puede venir del sorteo en lugar de la verdad. Nadie, ni el equipo de investigación ni el sitio web de la encuesta, puede saber a partir de ella qué es cierto en su caso.',
    'own_randomizer': 'Use su propio sorteo, lejos de la vista de los demás (por ejemplo, una moneda o un dado que lance en casa); nunca use uno de este sitio web y nunca escriba aquí su resultado.',
    'group_question': '¿Qué día del mes es su cumpleaños?',
    'group_odd': 'Un día impar (1, 3, 5 … 31): grupo 1',
    'group_even': 'Un día par (2, 4, 6 … 30): grupo 2',
    'group_note': 'Su grupo solo decide cuál de las dos instrucciones de abajo debe seguir; no dice nada sobre su respuesta.',
    'ticked': 'Marcada',
    'not_ticked': 'No marcada',
})

LABELS = {
    "no": ("No", "no"), "yes": ("Sí", "sí"),
    "different": ("Las respuestas son distintas", "distintas"),
    "same": ("Las dos respuestas son iguales", "iguales"),
    "both_no": ("Ambas no", "ambas no"), "at_least": ("Al menos un sí", "al menos un sí"),
    "black": ("Carta negra", "negra"), "red": ("Carta roja", "roja"),
    "red_one": "{k} carta roja", "red_many": "{k} cartas rojas", "red_short": ("{k} roja", "{k} rojas"),
}

WORDS = {"no": "no", "yes": "sí", "non-carrier": "sin la característica", "carrier": "con la característica"}

MONTHS = ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
          "noviembre", "diciembre")
