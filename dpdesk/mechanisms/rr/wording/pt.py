"""Português (tratamento formal, sem pronome: imperativo na 3.ª pessoa; serve Portugal e o Brasil)."""

NAME = "Português"
PERCENT = "{}%"
DECIMAL = ","
SINGULAR = (1,)

_HIDDEN = "sem que ninguém veja"

T = {
    "warner": (f"Faça o sorteio {_HIDDEN}. Com uma probabilidade de {{p}} recebe a afirmação «Tenho esta "
               "característica»; caso contrário ({q}), recebe a afirmação «Não tenho esta característica». "
               "Responda «Sim» se a afirmação que recebeu for verdadeira no seu caso e «Não» se for falsa. Nenhuma "
               "outra pessoa sabe que afirmação recebeu."),
    "forced_start": f"Faça o sorteio {_HIDDEN}, antes de responder.",
    "forced_truth": "Com uma probabilidade de {p}, responda à pergunta com sinceridade.",
    "forced_yes": "Com uma probabilidade de {p}, responda simplesmente «Sim».",
    "forced_no": "Com uma probabilidade de {p}, responda simplesmente «Não».",
    "forced_end": ("Nenhuma outra pessoa vê o resultado do sorteio, por isso um «Sim» ou um «Não» nunca revela a "
                   "sua verdadeira resposta."),
    "unrelated": (f"Faça o sorteio {_HIDDEN}. Com uma probabilidade de {{p}}, responda à pergunta sensível; caso "
                  "contrário ({rest}), responda em vez dela a outra pergunta, inofensiva (uma a que cerca de {q} das "
                  "pessoas responde «Sim», por exemplo sobre um aniversário). Responda com sinceridade à pergunta "
                  "que o sorteio lhe indicou; ninguém sabe qual foi."),
    "unrelated_unknown": (f"Pertence a um de dois grupos. Faça o sorteio {_HIDDEN}: responda à pergunta sensível com "
                          "uma probabilidade de {p1} no grupo 1 e de {p2} no grupo 2; caso contrário, responda à "
                          "pergunta inofensiva. Responda com sinceridade à pergunta que o sorteio lhe indicou."),
    "crosswise": ("Pense em duas perguntas: a pergunta sensível (A) e uma pergunta inofensiva (B) cuja resposta "
                  "nenhuma outra pessoa conhece (cerca de {p} das pessoas responde «Sim» a B). Não diga as suas "
                  "respostas. Assinale «{same}» se as suas respostas a A e a B forem ambas «Sim» ou ambas «Não»; "
                  "assinale «{different}» se uma for «Sim» e a outra «Não»."),
    "triangular": ("Pense em duas perguntas: a pergunta sensível (A) e uma pergunta inofensiva (B) cuja resposta "
                   "nenhuma outra pessoa conhece (cerca de {p} das pessoas responde «Sim» a B). Não diga as suas "
                   "respostas. Assinale «{at_least}» se a sua resposta a A, a B ou a ambas for «Sim»; assinale "
                   "«{both_no}» apenas se as duas respostas forem «Não»."),
    "mangat": (f"Se tiver esta característica, responda «Sim». Se não tiver, faça o sorteio {_HIDDEN}: com uma "
               "probabilidade de {p}, responda «Não» com sinceridade; caso contrário ({rest}), responda «Sim»."),
    "kuk": ("Tem dois baralhos: no baralho 1, {p1} das cartas são vermelhas; no baralho 2, {p2}. Se tiver esta "
            "característica, use o baralho 1; se não, o baralho 2. Tire {cards}. Indique apenas {report}; nunca "
            "diga que baralho usou."),
    "kuk_one": "uma carta",
    "kuk_many": "{n} cartas, uma de cada vez, devolvendo cada uma ao baralho",
    "kuk_colour": "a cor, vermelha ou preta",
    "kuk_count": "quantas eram vermelhas",
    "sld": (f"Pertence a um de dois grupos. Faça o sorteio {_HIDDEN}: com uma probabilidade de {{p1}} no grupo 1 "
            "({p2} no grupo 2), responda à pergunta com sinceridade; caso contrário, responda «Sim». A análise "
            "estima também quantos participantes não seguem as instruções."),
    "cdm": (f"Pertence a um de dois grupos. Faça o sorteio {_HIDDEN}: com uma probabilidade de {{p1}} no grupo 1 "
            "({p2} no grupo 2), responda simplesmente «Sim»; caso contrário, responda à pergunta com sinceridade. "
            "A análise estima também quantos participantes respondem «Não», seja qual for o resultado do sorteio."),
    "forced_multi": (f"Faça o sorteio {_HIDDEN}. Com uma probabilidade de {{t}}, dê a sua verdadeira resposta. Caso "
                     "contrário, o sorteio decide a sua resposta: {rest}."),
    "forced_multi_part": "com {p}, responda «{c}»",
    "krr": (f"Faça o sorteio {_HIDDEN}. Com uma probabilidade de {{keep}}, indique a sua verdadeira categoria; cada "
            "uma das outras categorias é indicada com uma probabilidade de {other}."),
    "unary": (f"Para cada opção separadamente, faça o sorteio {_HIDDEN}: se a opção se aplicar ao seu caso, "
              "assinale-a com uma probabilidade de {p}; se não se aplicar, assinale-a com uma probabilidade de {q}."),
    "custom_start": f"Faça o sorteio {_HIDDEN}.",
    "custom_line": "Quem na realidade pertence ao grupo «{s}» responde {parts}.",
    "custom_part": "«{r}» com uma probabilidade de {p}",
    # the card
    "how": "Como responder: ",
    "randomizer": "O seu sorteio: ",
    "options_unary": "Opções (assinale todas as que o sorteio deixar assinaladas): ",
    "answer_one": "Resposta (assinale uma): ",
    "nobody": ("Ninguém, nem mesmo quem realiza o estudo, pode saber apenas pela sua resposta o que é verdade no "
               "seu caso."),
    "b_placeholder": "[escreva aqui a pergunta inofensiva{about}]",
    "b_about": " a que cerca de {p} das pessoas responde «Sim»",
    "title": "Leia antes de responder",
    # the randomizers
    "or": " ou ",
    "to": "um número de {a} a {b}",
    "does_a": "responda à pergunta A", "does_b": "responda à pergunta B",
    "card_a": "Pergunta A", "card_b": "Pergunta B",
    "does_category": "responda «{c}»",
    "does_truth": "responda à pergunta com sinceridade",
    "does_yes": "responda «Sim»",
    "does_no": "responda «Não»",
    "die": "Lance um dado equilibrado de {sides} faces sem que ninguém veja o resultado.",
    "die_if": "Se sair {faces}, {does}.",
    "dice": "Lance {n} dados equilibrados de {sides} faces sem que ninguém os veja e some os resultados.",
    "dice_if": "Se a soma for {faces}, {does}.",
    "cards": f"Tire uma carta do baralho misturado de {{total}} cartas {_HIDDEN} e devolva-a ao baralho.",
    "card_truth": "Responder com sinceridade", "card_yes": "Dizer sim", "card_no": "Dizer não",
    "card_if": "Se a carta disser «{label}», {does}.",
    "coins": "Lance {n} moedas, uma de cada vez, sem que ninguém veja o resultado.",
    "coin": "Lance uma moeda sem que ninguém veja o resultado.",
    "heads": "cara", "tails": "coroa", "then": ", depois ",
    "coin_if": "Se sair primeiro {seq}, {does}.",
    "coin_all": "Se sair {seq}, {does}.",
    "exact": "Qualquer sorteio privado com estas probabilidades (por exemplo, um gerador de números aleatórios).",
    "birthday": "O aniversário da sua mãe é em {months}?",
}

# online and interview fielding: why the answer is private, whose randomizer, the group question
T.update({
    'interview_randomizer': 'Use o sorteio que a pessoa que faz a entrevista lhe entregar, fora da vista dela, e nunca diga o resultado em voz alta: só a sua resposta fica anotada.',
    'why_private_two': 'Porque a sua resposta é confidencial: nunca diz a sua resposta a nenhuma das duas perguntas, apenas se são iguais (ou se pelo menos uma é «Sim»), e nenhuma outra pessoa conhece a sua resposta à pergunta B. Ninguém, nem quem realiza o estudo nem o questionário, consegue saber a partir dela o que é verdade no seu caso.',
    'why_private_interview': 'Porque a sua resposta é confidencial: quem faz a entrevista nunca vê o seu sorteio, apenas a resposta que dá, e essa resposta pode vir do sorteio em vez da verdade. Ninguém, nem quem faz a entrevista nem quem realiza o estudo, consegue saber a partir dela o que é verdade no seu caso.',
    'why_private': 'Porque a sua resposta é confidencial: o questionário nunca vê a sua moeda, o seu dado ou o seu aniversário, apenas a resposta que assinala, e essa resposta pode vir do sorteio em vez da verdade. Ninguém, nem quem realiza o estudo nem o site do questionário, consegue saber a partir dela o que é verdade no seu caso.',
    'own_randomizer': 'Use o seu próprio sorteio, longe da vista de outras pessoas (por exemplo, uma moeda ou um dado que lança em casa); nunca use um sorteio deste site e nunca escreva aqui o resultado.',
    'group_question': 'Em que dia do mês é o seu aniversário?',
    'group_odd': 'Um dia ímpar (1, 3, 5 … 31): grupo 1',
    'group_even': 'Um dia par (2, 4, 6 … 30): grupo 2',
    'group_note': 'O seu grupo apenas decide qual das duas instruções abaixo deve seguir; não diz nada sobre a sua resposta.',
    'ticked': 'Assinalada',
    'not_ticked': 'Não assinalada',
})

LABELS = {
    "no": ("Não", "não"), "yes": ("Sim", "sim"),
    "different": ("As respostas são diferentes", "diferentes"),
    "same": ("As duas respostas são iguais", "iguais"),
    "both_no": ("Ambas não", "ambas não"), "at_least": ("Pelo menos um sim", "pelo menos um sim"),
    "black": ("Carta preta", "preta"), "red": ("Carta vermelha", "vermelha"),
    "red_one": "{k} carta vermelha", "red_many": "{k} cartas vermelhas",
    "red_short": ("{k} vermelha", "{k} vermelhas"),
}

WORDS = {"no": "não", "yes": "sim", "non-carrier": "sem a característica", "carrier": "com a característica"}

MONTHS = ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
          "novembro", "dezembro")
