D = "sports_rules"
FB_CTX = [
    "Substitutions. In league matches each team may use a maximum of 5 substitutes, made on no more than 3 occasions during the match, excluding half-time. An additional substitute is permitted if the match goes to extra time. Substituted players may not return to the field, except in youth divisions (U12 and below), where rolling substitutions are allowed.",
    "Discipline. A player who receives 5 yellow cards in league matches is suspended for the next 1 match; 10 yellow cards result in a 2-match suspension. A red card for serious foul play carries a minimum 3-match suspension. Suspensions must be served in the same competition in which the cards were received.",
    "Match duration. Senior matches consist of two halves of 45 minutes. U14 matches are two halves of 35 minutes, and U12 matches two halves of 30 minutes. The half-time interval must not exceed 15 minutes.",
]
MARA_CTX = [
    "参赛资格：全程马拉松参赛者须年满20周岁（以2025年12月31日计），半程马拉松须年满16周岁。患有心脏病、高血压等不适合剧烈运动疾病者不得报名。报名成功后名额不得转让，发现转让者取消参赛资格且两年内不得报名。",
    "关门时间：全程马拉松关门时间为6小时，半程马拉松为3小时。各关门点设有收容车，未在规定时间内通过关门点的选手须停止比赛并乘坐收容车。起跑时间为7:30，起点关闭时间为7:50。",
    "成绩认证：完成比赛的选手可获得完赛奖牌和成绩证书，成绩以芯片计时的净成绩为准，名次以枪声成绩排定。未佩戴计时芯片或未经过全部计时点的选手不予计算成绩。",
]

SCENARIOS = [
    dict(
        id="sp-e1",
        domain=D,
        lang="en",
        doc="League_Handbook_2025.pdf",
        loc="Rule 6",
        ctx=FB_CTX,
        q="How many substitutes can a team use in a league match, and can substituted players come back on?",
        ref="Up to 5 substitutes on no more than 3 occasions (excluding half-time), with one more allowed in extra time; substituted players may not return, except in U12 and below where rolling substitutions are allowed.",
        variants=[
            (
                "faithful_source_paren",
                "pass",
                "Each team can use up to 5 substitutes in a league match, on at most 3 occasions not counting half-time, and one extra substitute if the match goes to extra time. Players who have been substituted can't come back on, except in youth divisions of U12 and below, where rolling substitutions are allowed. (Source: League_Handbook_2025.pdf, Rule 6)",
            ),
            (
                "faithful_meta_bullets",
                "pass",
                "Based on the retrieved documents:\n\n- Maximum substitutes: 5\n- Maximum substitution occasions: 3 (half-time not counted)\n- Extra time: one additional substitute\n- Substituted players may not return, except in U12 and below (rolling substitutions)\n\n[1]",
            ),
            (
                "faithful_reordered_hash",
                "pass",
                "Substituted players cannot return to the field unless the match is in a youth division of U12 or below, where rolling substitutions apply. A team may make up to 5 substitutions on no more than 3 occasions, half-time excluded, plus 1 more in extra time. #para1",
            ),
            (
                "faithful_subset_hedged",
                None,
                "In youth divisions of U12 and below, substituted players can generally come back on, because rolling substitutions are allowed there. [1]",
            ),
            (
                "halluc_number",
                "fail",
                "Teams may use up to 5 substitutes on no more than 4 occasions, excluding half-time, plus one more in extra time. Substituted players may not return, except in U12 and below. (Source: League_Handbook_2025.pdf)",
            ),
            (
                "halluc_exception_moved",
                "fail",
                "A team may use 5 substitutes on at most 3 occasions (half-time excluded) and one more in extra time. Substituted players may not return, except in youth divisions of U14 and below, where rolling substitutions are allowed. [1]",
            ),
            (
                "halluc_negation",
                "fail",
                "Up to 5 substitutes on no more than 3 occasions, excluding half-time, with one extra in extra time. Substituted players may return to the field later in the match. (Source: League_Handbook_2025.pdf)",
            ),
            (
                "halluc_added_sentence",
                None,
                "Each team may use up to 5 substitutes on at most 3 occasions, not counting half-time, plus one in extra time; substituted players may not return except in U12 and below. Goalkeepers may be substituted at any time without counting towards the limit. [1]",
            ),
        ],
    ),
    dict(
        id="sp-e2",
        domain=D,
        lang="en",
        doc="League_Handbook_2025.pdf",
        loc="Rule 9",
        ctx=FB_CTX,
        ct="composite",
        value=3.0,
        unit="matches",
        q="How long is the suspension for a red card for serious foul play?",
        ref="A minimum 3-match suspension, served in the same competition in which the card was received.",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "Suspension: 3 matches\n\nA red card for serious foul play carries a suspension of at least 3 matches, which must be served in the same competition where the card was received. (Source: League_Handbook_2025.pdf, Rule 9)",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "3 matches",
                {
                    "narrative_answer": "A red card for serious foul play means at least a 3-match ban, served in the same competition in which the card was shown. By comparison, 5 yellow cards bring a 1-match suspension."
                },
            ),
            (
                "faithful_value_dash",
                "pass",
                "Value: 3 matches\nSerious foul play: red card, minimum 3-match suspension, to be served in the same competition. — League_Handbook_2025.pdf",
            ),
            (
                "halluc_number",
                "fail",
                "Suspension: 3 matches\n\nA red card for serious foul play carries a minimum 4-match suspension, served in the same competition. (Source: League_Handbook_2025.pdf)",
            ),
            (
                "halluc_minimum_dropped",
                None,
                "Value: 3 matches\nA red card for serious foul play results in a suspension of exactly 3 matches, never more, served in the same competition. [1]",
            ),
            (
                "halluc_narrative_competition",
                None,
                "3 matches",
                {
                    "narrative_answer": "A red card for serious foul play carries a minimum 3-match suspension, which may be served in any competition the team plays in."
                },
            ),
        ],
    ),
    dict(
        id="sp-e3",
        domain=D,
        lang="en",
        doc="League_Handbook_2025.pdf",
        loc="Rule 9",
        ctx=FB_CTX,
        q="What is the fine for a club whose team fails to turn up for a league match?",
        ref="",
        variants=[
            (
                "refusal_clean",
                0,
                "The retrieved rules cover substitutions, discipline and match duration, but not penalties for failing to fulfil a fixture, so I can't answer this.",
            ),
            (
                "refusal_fab_amount",
                1,
                "I couldn't find no-show penalties in the handbook excerpts. Leagues commonly fine the club around £150 and may deduct points, but check the full handbook.",
            ),
        ],
    ),
    dict(
        id="sp-z1",
        domain=D,
        lang="zh",
        doc="2025城市马拉松竞赛规程.pdf",
        loc="第三条",
        ctx=MARA_CTX,
        q="马拉松的参赛年龄要求是什么？名额能否转让？",
        ref="全程马拉松须年满20周岁（以2025年12月31日计），半程须年满16周岁；名额不得转让，转让者取消参赛资格且两年内不得报名。",
        variants=[
            (
                "faithful_source_cn_paren",
                "pass",
                "全程马拉松要求年满20周岁，半程马拉松要求年满16周岁，年龄以2025年12月31日计算。报名成功后名额不能转让，一经发现取消参赛资格，并且两年内不得再报名。（来源：2025城市马拉松竞赛规程.pdf）",
            ),
            (
                "faithful_meta_bullets",
                "pass",
                "根据检索到的文档：\n- 全程：年满20周岁（以2025年12月31日计）\n- 半程：年满16周岁\n- 名额：不得转让\n- 违规转让：取消参赛资格，两年内不得报名\n[1]",
            ),
            (
                "faithful_echo_dash",
                "pass",
                "马拉松的参赛年龄要求是什么？名额能否转让？\n全程须满20周岁、半程须满16周岁；名额不可转让，转让的取消资格且两年内不能报名。— 2025城市马拉松竞赛规程.pdf",
            ),
            (
                "faithful_subset_hedged",
                None,
                "成绩一般以芯片计时的净成绩为准，名次则按枪声成绩排定。[1]",
            ),
            (
                "halluc_number",
                "fail",
                "全程马拉松须年满18周岁（以2025年12月31日计），半程须年满16周岁；名额不得转让，转让者取消参赛资格且两年内不得报名。（来源：2025城市马拉松竞赛规程.pdf）",
            ),
            (
                "halluc_negation",
                "fail",
                "全程须年满20周岁，半程须年满16周岁。名额经组委会同意后可以转让。[1]",
            ),
            (
                "halluc_time_shift",
                "fail",
                "全程年满20周岁、半程年满16周岁；名额不得转让，发现转让者取消参赛资格且三年内不得报名。（来源：2025城市马拉松竞赛规程.pdf）",
            ),
            (
                "halluc_added_sentence",
                None,
                "全程须年满20周岁，半程须年满16周岁，名额不得转让。年满70周岁的选手报名时须提供三甲医院体检证明。[1]",
            ),
        ],
    ),
    dict(
        id="sp-z2",
        domain=D,
        lang="zh",
        doc="2025城市马拉松竞赛规程.pdf",
        loc="第五条",
        ctx=MARA_CTX,
        ct="composite",
        value=6.0,
        unit="小时",
        q="全程马拉松的关门时间是多久？没赶上关门点怎么办？",
        ref="全程马拉松关门时间为6小时；未在规定时间内通过关门点的选手须停止比赛并乘坐收容车。",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "关门时间：6小时\n全程马拉松的关门时间为6小时。没有在规定时间内通过关门点的选手必须停止比赛，乘坐收容车。（来源：2025城市马拉松竞赛规程.pdf）",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "6小时",
                {
                    "narrative_answer": "全程关门时间是6小时，半程是3小时。每个关门点都有收容车，超时未通过关门点的选手要停止比赛并上收容车。"
                },
            ),
            (
                "faithful_hedged_meta",
                "pass",
                "数值：6 小时\n根据检索到的文档：全程关门时间为6小时；未按时通过关门点的选手须停止比赛、乘坐收容车[1]。",
            ),
            (
                "halluc_number",
                "fail",
                "关门时间：6小时\n全程马拉松关门时间为5小时，未在规定时间内通过关门点的选手须停止比赛并乘坐收容车。（来源：2025城市马拉松竞赛规程.pdf）",
            ),
            (
                "halluc_negation",
                "fail",
                "数值：6小时\n全程关门时间6小时；未按时通过关门点的选手可以继续跑完全程，只是不计成绩。[1]",
            ),
            (
                "halluc_narrative_time",
                None,
                "6小时",
                {
                    "narrative_answer": "全程关门时间为6小时，起跑时间为8:00；未按时通过关门点须停止比赛并乘坐收容车。"
                },
            ),
        ],
    ),
    dict(
        id="sp-z3",
        domain=D,
        lang="zh",
        doc="2025城市马拉松竞赛规程.pdf",
        loc="第三条",
        ctx=MARA_CTX,
        q="这次马拉松的报名费是多少？",
        ref="",
        variants=[
            (
                "refusal_fab_two",
                2,
                "文档未说明报名费。往年全程报名费约200元、半程约150元，请以报名平台公布为准。",
            ),
            (
                "refusal_year_in_context",
                0,
                "检索到的规程只涉及2025年赛事的参赛资格、关门时间和成绩认证，没有说明报名费。",
            ),
        ],
    ),
]
