from django import template

from ratings.admin.dashboard import boards_for

register = template.Library()


@register.simple_tag(takes_context=True)
def federation_boards(context):
    return boards_for(context["request"].user)
