D = "building_codes"
STAIR_CTX = [
    "Section 7.4 Stairways. In dwellings, each stair riser shall be not more than 196 mm and each tread not less than 254 mm, measured horizontally from nosing to nosing. The headroom over any part of a stair shall be not less than 2,030 mm. Within any flight, the greatest riser height shall not exceed the smallest by more than 9.5 mm.",
    "Section 7.5 Handrails and guards. Stairs with 4 or more risers shall have at least one handrail, mounted between 865 mm and 965 mm above the tread nosings. Guards are required where an open side of a stair, landing or deck is more than 760 mm above the floor or grade below; guard height shall be at least 900 mm in dwellings, except 1,070 mm where the drop exceeds 1,800 mm.",
]
EXIT_CTX = [
    "5.5.8 公共建筑内每个防火分区或一个防火分区的每个楼层，其安全出口的数量应经计算确定，且不应少于2个。符合下列条件之一的，可设置1个安全出口：除托儿所、幼儿园外，建筑面积不大于200平方米且人数不超过50人的单层公共建筑或多层公共建筑的首层。",
    "5.5.17 公共建筑的安全疏散距离：直通疏散走道的房间疏散门至最近安全出口的直线距离，对于多层办公建筑，位于两个安全出口之间的疏散门不应大于40米，位于袋形走道两侧或尽端的疏散门不应大于22米。建筑内全部设置自动喷水灭火系统时，上述距离可增加25%。",
]

SCENARIOS = [
    dict(
        id="bld-e1",
        domain=D,
        lang="en",
        doc="Building_Code_Part7.pdf",
        loc="s. 7.4",
        ctx=STAIR_CTX,
        q="What are the maximum riser height and minimum tread depth for dwelling stairs, and when is a handrail required?",
        ref="Risers at most 196 mm and treads at least 254 mm; a handrail is required on stairs with 4 or more risers, mounted 865–965 mm above the tread nosings.",
        variants=[
            (
                "faithful_source_paren",
                "pass",
                "For stairs in dwellings, a riser may be no higher than 196 mm and a tread no shallower than 254 mm, measured nosing to nosing. Any stair with 4 or more risers needs at least one handrail, set 865–965 mm above the tread nosings. (Source: Building_Code_Part7.pdf, s. 7.4–7.5)",
            ),
            (
                "faithful_reordered_hash",
                "pass",
                "A handrail is needed once a stair has 4 or more risers; it goes between 865 mm and 965 mm above the nosings. Treads must be at least 254 mm deep and risers no more than 196 mm high. #para1 #para2",
            ),
            (
                "faithful_subset_reformatted",
                None,
                "Headroom over a dwelling stair must be at least 2030 mm, and within one flight the tallest riser may exceed the shortest by no more than 9.5 mm. [1]",
            ),
            (
                "faithful_meta_table",
                "pass",
                "Based on the retrieved documents:\n\n| Requirement | Value |\n|---|---|\n| Maximum riser | 196 mm |\n| Minimum tread | 254 mm |\n| Handrail | required with 4 or more risers, 865–965 mm above nosings |\n\nSource: Building_Code_Part7.pdf",
            ),
            (
                "halluc_number",
                "fail",
                "In dwellings, risers may be at most 200 mm and treads at least 254 mm. A handrail is required on stairs with 4 or more risers, mounted 865–965 mm above the nosings. (Source: Building_Code_Part7.pdf)",
            ),
            (
                "halluc_comparison_reversed",
                None,
                "Dwelling stair risers shall be not more than 196 mm, and treads shall be not more than 254 mm deep. Stairs with 4 or more risers need at least one handrail, 865–965 mm above the nosings. [1]",
            ),
            (
                "halluc_quantifier_widened",
                None,
                "Risers may be no more than 196 mm and treads no less than 254 mm. Every stair, whatever its number of risers, must have handrails on both sides, mounted 865–965 mm above the nosings. (Source: Building_Code_Part7.pdf)",
            ),
            (
                "halluc_added_sentence",
                None,
                "Risers may be at most 196 mm and treads at least 254 mm. Stairs with 4 or more risers need a handrail 865–965 mm above the nosings. Spiral stairs are exempt from the minimum tread depth. [1]",
            ),
        ],
    ),
    dict(
        id="bld-e2",
        domain=D,
        lang="en",
        doc="Building_Code_Part7.pdf",
        loc="s. 7.5",
        ctx=STAIR_CTX,
        ct="composite",
        value=1070.0,
        unit="mm",
        q="How high must a guard be on a house deck that sits well above grade, with a drop of more than 1,800 mm?",
        ref="At least 1,070 mm, because the drop exceeds 1,800 mm; guards are required where the drop is more than 760 mm, normally at least 900 mm high in dwellings.",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "Guard height: 1,070 mm\n\nGuards are required wherever the drop is more than 760 mm. In dwellings they must normally be at least 900 mm high, but where the drop exceeds 1,800 mm the minimum is 1,070 mm.\n\n(Source: Building_Code_Part7.pdf, s. 7.5)",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "1070 mm",
                {
                    "narrative_answer": "A deck more than 760 mm above grade needs a guard. In dwellings guards are normally at least 900 mm high, but where the drop is more than 1,800 mm the minimum becomes 1,070 mm."
                },
            ),
            (
                "faithful_value_reformatted",
                "pass",
                "Value: 1070 mm\nWhere the drop exceeds 1,800 mm, a guard in a dwelling must be at least 1,070 mm high. [1]",
            ),
            (
                "halluc_number_threshold",
                "fail",
                "Guard height: 1,070 mm\n\nGuards are required above 760 mm; in dwellings they are normally 900 mm high, rising to 1,070 mm where the drop exceeds 1,500 mm. (Source: Building_Code_Part7.pdf)",
            ),
            (
                "halluc_narrative_condition_moved",
                None,
                "1,070 mm",
                {
                    "narrative_answer": "Guards are required only where the drop exceeds 1,800 mm, and in that case they must be at least 1,070 mm high."
                },
            ),
            (
                "halluc_added_sentence",
                None,
                "Guard height: 1,070 mm\nBecause the drop exceeds 1,800 mm, the guard must be at least 1,070 mm high. Openings in the guard must not allow a 100 mm sphere to pass through. (Source: Building_Code_Part7.pdf)",
            ),
        ],
    ),
    dict(
        id="bld-e3",
        domain=D,
        lang="en",
        doc="Building_Code_Part7.pdf",
        loc="s. 7.4",
        ctx=STAIR_CTX,
        q="What fire-resistance rating is required for the wall between a dwelling and an attached garage?",
        ref="",
        variants=[
            (
                "refusal_clean",
                0,
                "The retrieved sections cover stairs, handrails and guards only; they do not state a fire-resistance requirement for garage walls, so I can't answer from these documents.",
            ),
            (
                "refusal_fab_amount_periods",
                1,
                "I could not find this in the retrieved sections of Part 7. Codes of this kind commonly require a 45-minute separation, as in the 2015/2020 editions, but please check the fire-separation part of the code.",
            ),
        ],
    ),
    dict(
        id="bld-z1",
        domain=D,
        lang="zh",
        doc="建筑设计防火规范.pdf",
        loc="第5.5.8条",
        ctx=EXIT_CTX,
        q="公共建筑什么情况下可以只设1个安全出口？",
        ref="除托儿所、幼儿园外，建筑面积不大于200平方米且人数不超过50人的单层公共建筑或多层公共建筑的首层，可设置1个安全出口；其他情况不应少于2个。",
        variants=[
            (
                "faithful_source_cn_paren",
                "pass",
                "一般情况下，每个防火分区（或防火分区的每个楼层）的安全出口不少于2个。只有单层公共建筑或多层公共建筑的首层，建筑面积不超过200平方米且人数不超过50人时，才可只设1个，但托儿所和幼儿园不适用这一例外。（来源：建筑设计防火规范.pdf，第5.5.8条）",
            ),
            (
                "faithful_meta_bullets",
                "pass",
                "根据检索到的文档：\n- 安全出口一般不应少于2个；\n- 可设1个的条件：建筑面积≤200平方米，且人数≤50人；\n- 仅限单层公共建筑或多层公共建筑的首层；\n- 托儿所、幼儿园除外。\n[1]",
            ),
            (
                "faithful_source_label_first",
                "pass",
                "Source: 建筑设计防火规范.pdf\n\n满足以下条件可以只设1个安全出口：单层公共建筑或多层公共建筑的首层，建筑面积不大于200平方米，人数不超过50人，并且不是托儿所或幼儿园。",
            ),
            (
                "faithful_echo_question_hedged",
                "pass",
                "公共建筑什么情况下可以只设1个安全出口？\n通常需要至少2个安全出口；面积不大于200平方米、人数不超过50人的单层公共建筑或多层公共建筑首层可以例外，托儿所、幼儿园不在此列。#para1",
            ),
            (
                "halluc_number",
                "fail",
                "除托儿所、幼儿园外，建筑面积不大于300平方米且人数不超过50人的单层公共建筑或多层公共建筑的首层，可设置1个安全出口。（来源：建筑设计防火规范.pdf）",
            ),
            (
                "halluc_exception_flipped",
                "fail",
                "建筑面积不大于200平方米且人数不超过50人的单层公共建筑或多层公共建筑首层可设1个安全出口，托儿所、幼儿园同样适用。[1]",
            ),
            (
                "halluc_quantifier_widened",
                None,
                "建筑面积不大于200平方米且人数不超过50人的多层公共建筑，其各个楼层均可只设1个安全出口（托儿所、幼儿园除外）。（来源：建筑设计防火规范.pdf）",
            ),
            (
                "halluc_added_sentence",
                None,
                "除托儿所、幼儿园外，面积不大于200平方米、人数不超过50人的单层公共建筑或多层公共建筑首层可设1个安全出口。地下室符合同样条件时也可只设1个安全出口。[1]",
            ),
        ],
    ),
    dict(
        id="bld-z2",
        domain=D,
        lang="zh",
        doc="建筑设计防火规范.pdf",
        loc="第5.5.17条",
        ctx=EXIT_CTX,
        ct="composite",
        value=40.0,
        unit="米",
        q="多层办公建筑中位于两个安全出口之间的疏散门，到最近安全出口的距离最多是多少？全部设置喷淋时呢？",
        ref="不应大于40米；建筑内全部设置自动喷水灭火系统时，该距离可增加25%。",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "数值：40 米\n位于两个安全出口之间的疏散门，到最近安全出口的直线距离不应大于40米；若建筑内全部设置自动喷水灭火系统，该距离可增加25%。（来源：建筑设计防火规范.pdf，第5.5.17条）",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "40米",
                {
                    "narrative_answer": "两个安全出口之间的疏散门不超过40米，袋形走道两侧或尽端的疏散门不超过22米；建筑内全部设置自动喷水灭火系统时，上述距离均可增加25%。"
                },
            ),
            (
                "faithful_value_markers",
                "pass",
                "最大距离：40米\n两个安全出口之间的房间疏散门到最近安全出口不超过40米[1]；全部设置自动喷水灭火系统时可放宽25%[1]。",
            ),
            (
                "halluc_number_percent",
                "fail",
                "数值：40米\n两个安全出口之间的疏散门至最近安全出口不应大于40米；全部设置自动喷水灭火系统时，可增加50%。（来源：建筑设计防火规范.pdf）",
            ),
            (
                "halluc_role_swap",
                "fail",
                "数值：40米\n位于袋形走道两侧或尽端的疏散门不应大于40米，位于两个安全出口之间的疏散门不应大于22米；全部设置喷淋时可增加25%。[1]",
            ),
            (
                "halluc_narrative_added",
                None,
                "40米",
                {
                    "narrative_answer": "两个安全出口之间的疏散门到最近安全出口不应大于40米，全部设置自动喷水灭火系统时可增加25%。设有机械排烟系统时还可再增加10%。"
                },
            ),
        ],
    ),
    dict(
        id="bld-z3",
        domain=D,
        lang="zh",
        doc="建筑设计防火规范.pdf",
        loc="第5.5.8条",
        ctx=EXIT_CTX,
        q="高层住宅的消防电梯载重量要求是多少？",
        ref="",
        variants=[
            (
                "refusal_clean",
                0,
                "检索到的条文只涉及安全出口数量和疏散距离，没有规定消防电梯的载重量，无法根据文档回答。",
            ),
            (
                "refusal_fab_amount_year",
                1,
                "文档中未找到相关规定。根据经验，消防电梯载重量一般不小于800千克，2018年版规范也沿用了这一要求，请查阅规范的消防电梯章节。",
            ),
        ],
    ),
]
